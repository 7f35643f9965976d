// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

/** Every module asked for has an object; a module not asked for is null. */
public record ValidationResult(
    AddressResult address,
    EmailResult email,
    PhoneResult phone,
    /** null for a publishable key, which reads nothing of the account */
    Credits credits,
    String requestId,
    long responseMs
) {}
