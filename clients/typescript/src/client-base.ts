// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
/** The client's base: its own methods and one property per resource (`client.batches`). */
import type { Transport } from './transport.js';
import { RootOperations, Keys, Policies, Connectors, WebhookEndpoints, EmailChecks, Feedback } from './resources.js';
import { Batches } from './batches.js';

export class ContactValidatorBase extends RootOperations {
  readonly keys: Keys;
  readonly batches: Batches;
  readonly policies: Policies;
  readonly connectors: Connectors;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly emailChecks: EmailChecks;
  readonly feedback: Feedback;

  constructor(transport: Transport) {
    super(transport);
    this.keys = new Keys(transport);
    this.batches = new Batches(transport);
    this.policies = new Policies(transport);
    this.connectors = new Connectors(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.emailChecks = new EmailChecks(transport);
    this.feedback = new Feedback(transport);
  }
}
