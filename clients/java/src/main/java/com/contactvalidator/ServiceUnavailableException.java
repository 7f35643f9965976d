package com.contactvalidator;

import java.time.Duration;

/** 503: the service cannot serve now (its database is unreachable); nothing was charged. Retried automatically, honouring Retry-After, while the timeout allows. */
public class ServiceUnavailableException extends ContactValidatorException {
  private final Long retryAfterSeconds;

  ServiceUnavailableException(Problem problem, Long retryAfterSeconds) {
    super(problem);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The answer's {@code Retry-After}, or {@code null} when it had none. */
  public Duration retryAfter() {
    return retryAfterSeconds == null ? null : Duration.ofSeconds(retryAfterSeconds);
  }
}
