export { ContactValidator, type AutocompleteOptions, type ContactValidatorOptions } from './client.js';
export * from './resources.js';
export { Batches, type BatchSource, type ResultOptions, type WaitForOptions } from './batches.js';
export { BatchResult, type UploadSource } from './streams.js';
export { SIGNATURE_HEADER, verifyWebhook, WebhookSignatureError, type WebhookEvent } from './webhooks.js';
export { VERSION, type RequestOptions } from './transport.js';
export * from './errors.js';
export * from './types.js';
export { ContactValidator as default } from './client.js';
