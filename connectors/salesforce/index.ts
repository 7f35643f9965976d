/**
 * The Salesforce connector (docs/connectors.md): reads changed Contacts and Leads from an org through its REST API and writes
 * the verdicts into the CV_*__c fields (README.md lists them; metadata/ creates them).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { KnownFields, type ConnectorContext, type ConnectorPlugin } from '../../src/sync/plugin.js';
import type { RetryPolicy } from '../../src/sync/retry.js';
import { salesforceConnect, type SalesforceApp } from './connect.js';
import { OBJECTS } from './mapping.js';

export const salesforceSettingsSchema = z.object({
  /** The org's My Domain URL (client credentials do not work on login.salesforce.com); the core checks https and SSRF. */
  login_url: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, '')),
  api_version: z.string().regex(/^\d{2,3}\.0$/, 'an API version such as "62.0"').default('62.0'),
  objects: z.array(z.enum(OBJECTS)).min(1).default([...OBJECTS]).transform((objects) => [...new Set(objects)]),
  page_size: z.number().int().min(200).max(2000).default(2000),
  /** The share of the org's daily API allowance a run may use up to (other integrations need the rest). */
  api_usage_max_share: z.number().gt(0).max(1).default(0.5),
  /**
   * Change Data Capture: new and changed records arrive within seconds over the streaming API (realtime.ts), besides
   * the schedule, which stays as the safety net.
   */
  realtime: z.boolean().default(false),
  /**
   * Records last verified (CV_Validated_At__c) this many days ago or more are checked again at the end of each run, even
   * unchanged, up to 2,000 a run (oldest first); absent: a record is checked only when it changes.
   */
  reverify_after_days: z.number().int().min(1).max(3650).optional(),
});

const pemPrivateKey = z.string().refine((pem) => {
  try { return crypto.createPrivateKey(pem).asymmetricKeyType === 'rsa'; } catch { return false; }
}, 'an RSA private key in PEM');

export const salesforceCredentialsSchema = z.union([
  /** OAuth 2.0 client-credentials flow (the connected app's run-as user). */
  z.object({ client_id: z.string().min(1), client_secret: z.string().min(1) }).strict(),
  /** OAuth 2.0 JWT bearer flow: the app's certificate holds the public half of `private_key`. */
  z.object({ client_id: z.string().min(1), username: z.string().min(1), private_key: pemPrivateKey }).strict(),
  /**
   * OAuth 2.0 web-server flow (the dashboard's "Connect Salesforce", with PKCE): the refresh token an admin's consent
   * gave; every session is a refresh-token grant.
   */
  z.object({ client_id: z.string().min(1), client_secret: z.string().min(1).optional(), refresh_token: z.string().min(1) }).strict(),
]);

export const salesforceWriteBackSchema = z.object({
  /** Also replace the Mailing (Contact) or Street/City/State/PostalCode (Lead) fields with a verified address. */
  overwrite_address: z.boolean().default(false),
  /**
   * Write the standardized address, e-mail and phone into the CV_ shadow fields (CV_Street__c, CV_Email__c, …) and
   * leave the record's own fields as they are.
   */
  shadow_fields: z.boolean().default(false),
}).refine((w) => !(w.overwrite_address && w.shadow_fields), {
  message: 'overwrite_address and shadow_fields exclude each other: the standardized address goes over the typed one or beside it',
  path: ['shadow_fields'],
});

export type SalesforceSettings = z.output<typeof salesforceSettingsSchema>;
export type SalesforceCredentials = z.output<typeof salesforceCredentialsSchema>;
export type SalesforceWriteBack = z.output<typeof salesforceWriteBackSchema>;

export interface SalesforcePluginOptions {
  /** The service's connected app (SALESFORCE_CLIENT_ID, SALESFORCE_CLIENT_SECRET): "Connect Salesforce" is offered. */
  app?: SalesforceApp | null;
  retry?: Partial<RetryPolicy>;
  /** How far before the watermark each read starts again (default 5 minutes). */
  overlapMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** How long the optional fields an org's objects have are kept before they are described again (default 10 minutes). */
  knownFieldsTtlMs?: number;
}

/** Whose fields these are: an org, as one run-as user sees it (field-level security). */
const orgKey = (client: { instanceUrl: string; userId: string | null }) => `${client.instanceUrl} ${client.userId ?? ''}`;

export function createSalesforcePlugin(
  options: SalesforcePluginOptions = {},
): ConnectorPlugin<SalesforceSettings, SalesforceCredentials, SalesforceWriteBack> {
  // The next-action fields each org's objects have, described once a while (not at every delivery's session).
  const known = new KnownFields(options.knownFieldsTtlMs);
  return {
    type: 'salesforce',
    presentation: {
      title: 'Salesforce', summary: 'Contacts and Leads of an org, in real time with Change Data Capture',
      manualSteps: [
        "Deploy the fields and the permission set from the service's folder: `cd connectors/salesforce/metadata && sf project deploy start --manifest package.xml --target-org <alias>`",
        'Assign the permission set: `sf org assign permset --name Contact_Validator_Integration --on-behalf-of <user> --target-org <alias>`',
        'For real time, select Contact and Lead under Setup → Change Data Capture.',
      ],
      examples: {
        create: {
          type: 'salesforce', name: 'Production org', schedule: '*/15 * * * *',
          settings: { login_url: 'https://acme.my.salesforce.com', api_version: '62.0', objects: ['Contact', 'Lead'] },
          credentials: { client_id: '3MVG9…', client_secret: '…' },
          write_back: { overwrite_address: false },
        },
        check: { ok: false, problems: [{
          code: 'field_missing', message: 'Contact has no Contact.CV_Email_Risk__c, Contact.CV_Phone_Carrier__c (or the run-as user cannot see it).',
          fix: 'Deploy connectors/salesforce/metadata to the org (sf project deploy start --manifest package.xml) and assign the permission set Contact_Validator_Integration to the run-as user.',
        }] },
      },
    },
    connect: salesforceConnect(options.app ?? null),
    settingsSchema: salesforceSettingsSchema,
    credentialsSchema: salesforceCredentialsSchema,
    writeBackSchema: salesforceWriteBackSchema,
    urlsOf: (settings) => [settings.login_url],
    async open(context) {
      const { settings, writeBack, log } = context;
      const [client, { createSession }, { writableOptionalFields }] = await Promise.all([clientFor(context, options), import('./session.js'), import('./check.js')]);
      await client.authenticate();
      log.info({ instanceUrl: client.instanceUrl, apiVersion: settings.api_version }, 'salesforce session opened');
      return createSession(client, {
        objects: settings.objects,
        pageSize: settings.page_size,
        writeMode: { overwriteAddress: writeBack.overwrite_address, shadowFields: writeBack.shadow_fields },
        overlapMs: options.overlapMs ?? 5 * 60_000,
        writableOptional: (object) => known.of(orgKey(client), object, () => writableOptionalFields(client, object)),
        ...(settings.realtime ? { realtime: { fetch: context.fetch, log } } : {}),
        ...(settings.reverify_after_days ? { reverifyAfterDays: settings.reverify_after_days } : {}),
      });
    },
    async setUp(context) {
      const [client, { setUpOrg }] = await Promise.all([clientFor(context, options), import('./setup.js')]);
      try {
        return await setUpOrg(client, { objects: context.settings.objects, shadowFields: context.writeBack.shadow_fields });
      } finally {
        if (client.instanceUrl) known.forget(orgKey(client));
      }
    },
    async discover(context) {
      const [client, { discoverOrg }] = await Promise.all([clientFor(context, options), import('./discover.js')]);
      return discoverOrg(client, { objects: context.settings.objects, shadowFields: context.writeBack.shadow_fields });
    },
    async check(context) {
      const [client, { checkOrg }] = await Promise.all([clientFor(context, options), import('./check.js')]);
      return checkOrg(client, {
        objects: context.settings.objects, overwriteAddress: context.writeBack.overwrite_address, shadowFields: context.writeBack.shadow_fields,
      });
    },
  };
}

/** A client for these settings; jsforce, a large package, is loaded by the first sync or check rather than at every start. */
async function clientFor(
  { settings, credentials, onApiUsage, log, fetch }: ConnectorContext<SalesforceSettings, SalesforceCredentials, SalesforceWriteBack>,
  options: SalesforcePluginOptions,
) {
  const { DEFAULT_RETRY, SalesforceClient } = await import('./client.js');
  return new SalesforceClient({
    loginUrl: settings.login_url,
    apiVersion: settings.api_version,
    credentials,
    apiUsageMaxShare: settings.api_usage_max_share,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    onApiUsage,
    log,
    fetch,
    sleep: options.sleep,
  });
}

export const salesforcePlugin = createSalesforcePlugin();
