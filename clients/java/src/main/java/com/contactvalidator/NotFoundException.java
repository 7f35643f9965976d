package com.contactvalidator;

/** 404: no such resource on this account (another account's answers alike); also 410, a canceled batch's deleted result. */
public class NotFoundException extends ContactValidatorException {
  NotFoundException(Problem problem) {
    super(problem);
  }
}
