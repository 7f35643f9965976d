package com.contactvalidator;

import java.time.Duration;

/** 429: over the key's rate limit. Retried automatically, honouring Retry-After, while the timeout allows. */
public class RateLimitException extends ContactValidatorException {
  private final Long retryAfterSeconds;

  RateLimitException(Problem problem, Long retryAfterSeconds) {
    super(problem);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The answer's {@code Retry-After}, or {@code null} when it had none. */
  public Duration retryAfter() {
    return retryAfterSeconds == null ? null : Duration.ofSeconds(retryAfterSeconds);
  }
}
