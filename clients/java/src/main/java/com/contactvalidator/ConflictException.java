package com.contactvalidator;

/** 409: the batch result is not ready, the batch is not paused, the connector is busy, or an Idempotency-Key is in flight. */
public class ConflictException extends ContactValidatorException {
  ConflictException(Problem problem) {
    super(problem);
  }
}
