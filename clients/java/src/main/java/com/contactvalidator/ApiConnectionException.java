package com.contactvalidator;

/** No answer: the connection failed or was dropped, or the call's total timeout passed. There is no problem document. */
public class ApiConnectionException extends ContactValidatorException {
  private final boolean timeout;

  public ApiConnectionException(String message, boolean timeout, Throwable cause) {
    super(message, 0, null, cause);
    this.timeout = timeout;
  }

  /** True when the call's total timeout ({@link ContactValidator.Builder#timeout}) ran out. */
  public boolean isTimeout() {
    return timeout;
  }
}
