package com.contactvalidator;

/** 401: the API key is missing, malformed, unknown or revoked. */
public class AuthenticationException extends ContactValidatorException {
  AuthenticationException(Problem problem) {
    super(problem);
  }
}
