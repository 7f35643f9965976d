// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The columns read, as named or as detected from the header */
public record BatchColumns(
    /** Header names joined with ", " into the one-line address */
    List<String> address,
    String email,
    String phone,
    String country,
    /** The feedback column (docs/batches.md#feedback) */
    String feedback
) {}
