// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code WebhookEndpointList}. */
public record WebhookEndpointList(
    /** Newest first */
    List<WebhookEndpoint> webhookEndpoints
) {}
