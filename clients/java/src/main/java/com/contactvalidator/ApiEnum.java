package com.contactvalidator;

/** A closed vocabulary of the API: each constant knows its value on the wire. */
public interface ApiEnum {
  /** The value as the service spells it ({@code null} for {@code UNRECOGNIZED}). */
  String value();
}
