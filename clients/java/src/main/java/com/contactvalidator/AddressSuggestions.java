// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code AddressSuggestions}. */
public record AddressSuggestions(
    /** Best first: with a house number typed, delivery points first; else places and streets */
    List<AddressSuggestion> suggestions
) {}
