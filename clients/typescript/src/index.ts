export { ContactValidator, Keys, type AutocompleteOptions, type ContactValidatorOptions, type ValidateOptions } from './client.js';
export { Batches, BatchResult, type BatchSource, type CreateBatchOptions, type ResultOptions, type WaitForOptions } from './batches.js';
export { Connectors } from './connectors.js';
export { SIGNATURE_HEADER, verifyWebhook, WebhookEndpoints, WebhookSignatureError, type WebhookEvent } from './webhooks.js';
export { VERSION, type RequestOptions } from './transport.js';
export * from './errors.js';
export * from './types.js';
export { ContactValidator as default } from './client.js';
