// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code WebhookDeliveryList}. */
public record WebhookDeliveryList(
    /** Newest first, at most 100 */
    List<WebhookDelivery> deliveries
) {}
