package com.contactvalidator;

import java.util.List;

/** The columns a batch reads: given, or detected from the header. */
public record BatchColumns(
    List<String> address,
    String email,
    String phone,
    String country
) {}
