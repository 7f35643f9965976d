package com.contactvalidator;

/** 403: a publishable key used from another origin, or for a module it may not use. */
public class PermissionException extends ContactValidatorException {
  PermissionException(Problem problem) {
    super(problem);
  }
}
