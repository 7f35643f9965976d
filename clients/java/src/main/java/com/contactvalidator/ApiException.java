package com.contactvalidator;

/** Any other error status, mostly 5xx: the service failed. Retried automatically on idempotent calls. */
public class ApiException extends ContactValidatorException {
  ApiException(Problem problem) {
    super(problem);
  }
}
