package com.contactvalidator;

/** One field problem of a 400 answer. */
public record FieldError(
    String field,
    String message
) {}
