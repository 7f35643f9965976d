/**
 * The Shopify check before a first run: the token (or the client credentials grant) works, the app holds the access
 * scopes the configuration needs (`currentAppInstallation.accessScopes`), and, when this service has a public address,
 * the webhooks are subscribed (as each run does) with any topic Shopify refuses named.
 */
import { ConnectorError, type CheckProblem } from '../../src/sync/plugin.js';
import type { ShopifyClient } from './client.js';
import type { ShopifyResource } from './mapping.js';
import { subscribeWebhooks } from './subscriptions.js';

export interface StoreCheckOptions {
  resources: readonly ShopifyResource[];
  /** The scopes the resources and write-back need (requiredScopes). */
  scopes: string[];
  webhookUrl?: string;
}

function credentialsProblem(err: unknown): CheckProblem {
  if (!(err instanceof ConnectorError) || err.reason !== 'auth_failed') throw err;
  return {
    code: 'credentials_refused',
    message: `Shopify refused the connector's credentials (${err.platformMessage ?? err.message}).`,
    fix: "Check the app's Admin API access token (shpat_…) or its client ID and secret, and that the app is installed on the shop.",
  };
}

export async function checkStore(client: ShopifyClient, options: StoreCheckOptions): Promise<CheckProblem[]> {
  let missing: string[];
  try {
    await client.authenticate();
    missing = await client.missingScopes(options.scopes);
  } catch (err) {
    return [credentialsProblem(err)];
  }
  if (missing.length) {
    return [{
      code: 'scope_missing',
      message: `The app lacks the access scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
      fix: "Add the scopes in the app's configuration (Access scopes), release the version and approve it on the shop; " +
        'or turn write_back off to need read scopes only.',
    }];
  }
  if (!options.webhookUrl) return [];
  const refused = await subscribeWebhooks(client, options.resources, options.webhookUrl);
  return refused.map(({ topic, message }) => ({
    code: 'webhook_refused',
    message: `Shopify refused the ${topic} webhook to ${options.webhookUrl} (${message}).`,
    fix: 'PUBLIC_BASE_URL must be an https address Shopify can reach; scheduled runs still read every change meanwhile.',
  }));
}
