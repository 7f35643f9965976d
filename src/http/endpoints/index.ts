/**
 * Every endpoint of the service, in the order Express tries them and the description lists them: POST /v1/validate
 * first (the hot path). One file per resource, each endpoint's whole story (schemas, problems, handler) in one place.
 */
import { accountEndpoints } from './account.js';
import { autocompleteEndpoints } from './autocomplete.js';
import { batchEndpoints } from './batches.js';
import { connectorEndpoints } from './connectors.js';
import type { AnyEndpoint } from './endpoint.js';
import { descriptionEndpoints, healthEndpoints, pageEndpoints } from './service.js';
import { installEndpoints } from './install.js';
import { orderEndpoints } from './order-endpoints.js';
import { validateEndpoints } from './validate.js';
import { validateBatchEndpoints } from './validate-batch.js';
import { policyEndpoints } from './policies.js';
import { webhookEndpointEndpoints } from './webhook-endpoints.js';
import { webhookEndpoints } from './webhooks.js';
import { emailCheckEndpoints } from './email-checks.js';
import { feedbackEndpoints } from './feedback.js';

export const ENDPOINTS: readonly AnyEndpoint[] = [
  ...validateEndpoints, ...validateBatchEndpoints, ...autocompleteEndpoints, ...accountEndpoints, ...batchEndpoints, ...policyEndpoints, ...connectorEndpoints, ...webhookEndpointEndpoints, ...healthEndpoints,
  ...webhookEndpoints, ...descriptionEndpoints, ...pageEndpoints, ...installEndpoints,
  ...orderEndpoints, ...emailCheckEndpoints, ...feedbackEndpoints,
];
