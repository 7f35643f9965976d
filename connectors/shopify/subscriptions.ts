/**
 * The shop's webhook subscriptions to this service (`webhookSubscriptionCreate`, JSON format): the topics a connector
 * listens to, added when missing and the rest left alone. Runs subscribe at their start; the check does it before a
 * first run, to name what Shopify refuses.
 */
import type { ShopifyClient } from './client.js';
import type { ShopifyResource } from './mapping.js';

/** The topics a connector listens to (the privacy topics are set in the app's configuration, not through the API). */
const WEBHOOK_TOPICS = { customers: ['CUSTOMERS_CREATE', 'CUSTOMERS_UPDATE'], orders: ['ORDERS_CREATE', 'ORDERS_UPDATED'] } as const;

interface Subscriptions {
  webhookSubscriptions: { nodes: { id: string; topic: string; endpoint: { __typename: string; callbackUrl?: string } }[] };
}

export interface RefusedSubscription { topic: string; message: string }

/** Subscribes each topic not yet sent to `callbackUrl`; gives back those Shopify refused, with its words. */
export async function subscribeWebhooks(client: ShopifyClient, resources: readonly ShopifyResource[], callbackUrl: string): Promise<RefusedSubscription[]> {
  const wanted = ['APP_UNINSTALLED', ...resources.flatMap((r) => WEBHOOK_TOPICS[r])];
  const existing = await client.request<Subscriptions>('webhookSubscriptions', `query {
    webhookSubscriptions(first: 50) { nodes { id topic endpoint { __typename ... on WebhookHttpEndpoint { callbackUrl } } } }
  }`);
  const have = new Set(existing.webhookSubscriptions.nodes.filter((n) => n.endpoint.callbackUrl === callbackUrl).map((n) => n.topic));
  const refused: RefusedSubscription[] = [];
  for (const topic of wanted.filter((t) => !have.has(t))) {
    const created = await client.request<{ webhookSubscriptionCreate: { userErrors: { message: string }[] } }>('webhookSubscriptionCreate', `
      mutation ($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) {
        webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) { webhookSubscription { id } userErrors { field message } }
      }`, { topic, sub: { callbackUrl, format: 'JSON' } });
    const errors = created.webhookSubscriptionCreate.userErrors;
    if (errors.length) refused.push({ topic, message: errors.map((e) => e.message).join('; ') });
  }
  return refused;
}
