package com.contactvalidator;

/** 400 (the body or a parameter fails the schema: see {@link #fieldErrors()}), 413 (too large), 415 (wrong media type), 422 (a CSV the service cannot read: see {@link #line()}, or an Idempotency-Key reused with another body). */
public class InvalidRequestException extends ContactValidatorException {
  InvalidRequestException(Problem problem) {
    super(problem);
  }

  /** The 1-based line of a CSV file the service could not read (422 invalid-csv), or {@code null}. */
  public Integer line() {
    Object line = extensions().get("line");
    return line instanceof Number ? ((Number) line).intValue() : null;
  }
}
