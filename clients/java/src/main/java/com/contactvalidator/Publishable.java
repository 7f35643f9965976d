// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code PublishableScope}. */
public record Publishable(
    /** The origins whose pages may use the key (CORS is answered for them alone) */
    List<String> origins,
    /** Whether the key may check phone numbers */
    boolean phone
) {}
