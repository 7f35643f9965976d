package com.contactvalidator;

/** 402: the account's usable credits do not cover the request; nothing was charged. */
public class InsufficientCreditsException extends ContactValidatorException {
  InsufficientCreditsException(Problem problem) {
    super(problem);
  }

  /** The account's usable balance when the request was refused, or {@code null}. */
  public Long balance() {
    return number("balance");
  }

  /** The credits the request needed, or {@code null}. */
  public Long required() {
    return number("required");
  }

  private Long number(String name) {
    Object v = extensions().get(name);
    return v instanceof Number ? ((Number) v).longValue() : null;
  }
}
