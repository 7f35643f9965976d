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
    long responseMs,
    /** true when a test key ({@code cv_test_…}) asked: network checks off, nothing charged (docs/account.md#test-keys) */
    boolean test,
    /** The most demanding of the modules asked: {@code fix} if one says fix, else {@code confirm} if one says confirm, else {@code accept} */
    NextAction nextAction
) {}
