/**
 * The HubSpot connector (docs/connectors.md, README.md here): reads changed contacts from a HubSpot account through the
 * CRM search API and writes each verdict into the `cv_*` contact properties of the "Contact Validator" group, with the
 * official client (@hubspot/api-client 13.5.0, pinned: 13.x is the last major that runs on Node 20; 14 needs Node 22).
 */
import { z } from 'zod';
import { KnownFields, type ConnectorContext, type ConnectorPlugin } from '../../src/sync/plugin.js';
import type { RetryPolicy } from '../../src/sync/retry.js';
import { connectMethods, type HubspotApp } from './connect.js';
import { webhookSpec } from './webhooks.js';

/**
 * HubSpot's API hosts (`api.hubapi.com`, a data centre's `api-eu1.hubapi.com`), or loopback for a local stand-in,
 * which the core refuses unless CONNECTOR_ALLOW_PRIVATE is set (tests). An OAuth connector's refresh sends the app's
 * client secret to this host: nothing else may be named.
 */
const HUBSPOT_HOST = /^api(-[a-z0-9]+)?\.hubapi\.com$/;
const LOOPBACK_HOST = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export const hubspotSettingsSchema = z.object({
  /** The HubSpot account's id (Hub ID, shown in the account menu): webhook events name it. */
  portal_id: z.coerce.number().int().positive(),
  api_base_url: z.url({ protocol: /^https?$/ }).default('https://api.hubapi.com')
    .transform((url) => url.replace(/\/+$/, ''))
    .refine((url) => {
      const { protocol, hostname } = new URL(url);
      return (protocol === 'https:' && HUBSPOT_HOST.test(hostname)) || LOOPBACK_HOST.test(hostname);
    }, "HubSpot's API host (https://api.hubapi.com or a data centre's api-<region>.hubapi.com)"),
  /** Contacts per search (HubSpot takes at most 200). */
  page_size: z.number().int().min(1).max(200).default(100),
});

export const hubspotCredentialsSchema = z.union([
  /**
   * A private app's access token (`pat-…`); its client secret verifies the app's webhook deliveries, when it has any.
   */
  z.object({ access_token: z.string().min(1), client_secret: z.string().min(1).optional() }).strict(),
  /** An OAuth app's grant (the dashboard's "Connect HubSpot"): every access token comes from the refresh token. */
  z.object({ client_id: z.string().min(1), client_secret: z.string().min(1), refresh_token: z.string().min(1) }).strict(),
]);

/** Nothing to choose yet: the verdicts always go into the `cv_*` properties, never over the contact's own. */
export const hubspotWriteBackSchema = z.object({}).strict();

export type HubspotSettings = z.output<typeof hubspotSettingsSchema>;
export type HubspotCredentials = z.output<typeof hubspotCredentialsSchema>;
export type HubspotWriteBack = z.output<typeof hubspotWriteBackSchema>;

export interface HubspotPluginOptions {
  /** The service's HubSpot app (HUBSPOT_CLIENT_ID, HUBSPOT_CLIENT_SECRET): "Connect HubSpot" and its webhooks. */
  app?: HubspotApp | null;
  /** Tests only: where an OAuth code is exchanged instead of https://api.hubapi.com (a local stand-in). */
  apiBaseUrl?: string;
  retry?: Partial<RetryPolicy>;
  /** How far before the last window's end each read starts again (default 5 minutes). */
  overlapMs?: number;
  /** Time limit of one API call (default 30 s). */
  timeoutMs?: number;
  /** The least time between two searches (default 220 ms: HubSpot's search API takes about five a second). */
  searchIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** How long the optional properties an account holds are kept before they are read again (default 10 minutes). */
  knownPropertiesTtlMs?: number;
}

/** Whose properties these are: one portal, at one API host. */
const accountKey = (settings: HubspotSettings) => `${settings.api_base_url} ${settings.portal_id}`;

export function createHubspotPlugin(options: HubspotPluginOptions = {}): ConnectorPlugin<HubspotSettings, HubspotCredentials, HubspotWriteBack> {
  // The next-action properties an account holds, read once a while (not at every delivery's session).
  const known = new KnownFields(options.knownPropertiesTtlMs);
  return {
    type: 'hubspot',
    settingsSchema: hubspotSettingsSchema,
    credentialsSchema: hubspotCredentialsSchema,
    writeBackSchema: hubspotWriteBackSchema,
    urlsOf: (settings) => [settings.api_base_url],
    platformKeyOf: (settings) => String(settings.portal_id),
    presentation: {
      title: 'HubSpot',
      summary: 'Contacts: addresses, e-mails and phones checked as they change, the verdicts in cv_ contact properties.',
    },
    connect: connectMethods({ app: options.app ?? null, apiBaseUrl: options.apiBaseUrl }),
    webhooks: webhookSpec(options.app ?? null),
    async open(context) {
      const [client, { createSession }, { writableOptional }] = await Promise.all([clientFor(context, options), import('./session.js'), import('./properties.js')]);
      await client.authenticate();
      context.log.info({ portalId: context.settings.portal_id }, 'hubspot session opened');
      return createSession(client, {
        pageSize: context.settings.page_size, overlapMs: options.overlapMs ?? 5 * 60_000,
        writableOptional: () => known.of(accountKey(context.settings), 'contacts', async () => writableOptional(await client.contactProperties())),
      });
    },
    async check(context) {
      const [client, { checkAccount }] = await Promise.all([clientFor(context, options), import('./check.js')]);
      return checkAccount(client, context.settings.portal_id);
    },
    async discover(context) {
      const [client, { discoverAccount }] = await Promise.all([clientFor(context, options), import('./check.js')]);
      return discoverAccount(client);
    },
    async setUp(context) {
      const [client, { setUpAccount }] = await Promise.all([clientFor(context, options), import('./check.js')]);
      try {
        return await setUpAccount(client);
      } finally {
        known.forget(accountKey(context.settings));
      }
    },
  };
}

/** A client for these settings; @hubspot/api-client is loaded by the first sync or check rather than at every start. */
export async function clientFor(
  { settings, credentials, onApiUsage, log, fetch }: Omit<ConnectorContext<HubspotSettings, HubspotCredentials, unknown>, 'writeBack'>,
  options: HubspotPluginOptions,
) {
  const { DEFAULT_RETRY, HubspotClient } = await import('./client.js');
  return new HubspotClient({
    baseUrl: settings.api_base_url,
    auth: 'access_token' in credentials
      ? { accessToken: credentials.access_token }
      : { clientId: credentials.client_id, clientSecret: credentials.client_secret, refreshToken: credentials.refresh_token },
    fetch,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs: options.timeoutMs ?? 30_000,
    searchIntervalMs: options.searchIntervalMs ?? 220,
    onApiUsage,
    log,
    sleep: options.sleep,
  });
}

export const hubspotPlugin = createHubspotPlugin();
