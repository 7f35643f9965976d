package com.contactvalidator;

import java.util.List;

/** What a publishable key may do: the origins it answers, and whether it may use the phone module. */
public record Publishable(
    List<String> origins,
    boolean phone
) {}
