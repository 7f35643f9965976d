// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;

/** A name, the preset to start from, and any rules to change in it; rules left out are the preset's. */
public record NewPolicyRequest(
    Map<String, Object> address,
    Map<String, Object> email,
    Map<String, Object> phone,
    /** Unique in the account; not a preset's name */
    String name,
    /** The preset whose rules the ones given change (default {@code default}) */
    String base
) {}
