/**
 * The HubSpot plugin against the local HubSpot (fake-hubspot.ts), driven by the real @hubspot/api-client's generated
 * APIs through the outbound guard: settings, reading past the search API's 10,000-result cap, write-back in batches of
 * 100 while paging, HubSpot's limits (429 TEN_SECONDLY_ROLLING waited, DAILY ended and resumed from the watermark),
 * OAuth tokens renewed before expiry and on 401, the check and the set-up, and v3 webhook signatures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHubspotPlugin, hubspotCredentialsSchema, hubspotSettingsSchema, hubspotWriteBackSchema, type HubspotPluginOptions,
} from '../../connectors/hubspot/index.js';
import { CV_PROPERTIES } from '../../connectors/hubspot/properties.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { ConnectorError, type ChangePage, type ConnectorSession, type Watermark, type WriteBackItem } from '../../src/sync/plugin.js';
import type { AddressResult, EmailResult, PhoneResult } from '../../src/validation/types.js';
import { ALL_SCOPES, startFakeHubspot, type FakeHubspot, type FakeHubspotOptions } from './fake-hubspot.js';
import { setUpProperties } from './properties.js';

let hub: FakeHubspot;
afterEach(async () => { await hub?.close(); });

const log = { info() {}, warn() {} };
const sleeps: number[] = [];

async function startHub(options: FakeHubspotOptions = {}) {
  hub = await startFakeHubspot(options);
  sleeps.length = 0;
  return hub;
}

/** The plugin as the core builds it, its waits recorded (and spent: the fake's window is real time). */
const pluginFor = (options: HubspotPluginOptions = {}) => createHubspotPlugin({
  retry: { attempts: 6, baseDelayMs: 5, maxDelayMs: 5_000 }, searchIntervalMs: 0,
  sleep: async (ms) => { sleeps.push(ms); await new Promise((r) => setTimeout(r, ms)); },
  ...options,
});

function contextFor(h: FakeHubspot, credentials: object, settings: object = {}) {
  return {
    settings: hubspotSettingsSchema.parse({ portal_id: h.state.hubId, api_base_url: h.url, ...settings }),
    credentials: hubspotCredentialsSchema.parse(credentials),
    writeBack: hubspotWriteBackSchema.parse({}),
    log,
    // The core's way out: the outbound guard, the stand-in's origin allowed as CONNECTOR_ALLOW_PRIVATE allows it.
    fetch: createGuardedHttp({ privateOrigins: [h.url] }).fetch,
  };
}

async function readAll(session: ConnectorSession, watermark: Watermark = {}): Promise<ChangePage[]> {
  const pages: ChangePage[] = [];
  for await (const page of session.changes(watermark)) pages.push(page);
  return pages;
}

async function failureOf(p: Promise<unknown>): Promise<ConnectorError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ConnectorError);
  return err as ConnectorError;
}

const address: AddressResult = {
  status: 'verified', standardized: '6007 APPLEGATE LN LOUISVILLE KY 40219-1412', dpv: 'Y', zip4: '40219-1412', country: 'US', footnotes: [],
  evidence: 'delivery_point', sources: ['rrad'], location: null,
  components: {
    primary_number: '6007', street_predirection: null, street_name: 'APPLEGATE', street_suffix: 'LN', street_postdirection: null,
    secondary_designator: null, secondary_number: null, city: 'LOUISVILLE', state: 'KY', postal_code: '40219', plus4: '1412', country: 'US',
  },
};
const email: EmailResult = { status: 'risky', risk: 'medium', smtp: 'skipped', reason: 'role', normalized: 'info@acme.com', suggestion: null, disposable: false, role: true, free: false };
const phone: PhoneResult = { status: 'valid', type: 'fixed_or_mobile', carrier: null, carrier_source: 'none', e164: '+15027134410', country: 'US' };
const AT = '2026-11-25T08:00:00.000Z';
const person = (i: number) => ({ email: `p${i}@acme.com`, phone: `+1 502 713 ${String(4000 + i).padStart(4, '0')}`, address: `${100 + i} Main St`, city: 'Louisville', state: 'KY', zip: '40219', country: 'United States' });

describe('the HubSpot connector: settings', () => {
  it('When settings name HubSpot\'s API or loopback, then they are taken with their defaults; any other host is refused', () => {
    expect(hubspotSettingsSchema.parse({ portal_id: 123 })).toEqual({ portal_id: 123, api_base_url: 'https://api.hubapi.com', page_size: 100 });
    expect(hubspotSettingsSchema.parse({ portal_id: 1, api_base_url: 'https://api-eu1.hubapi.com/' }).api_base_url).toBe('https://api-eu1.hubapi.com');
    expect(hubspotSettingsSchema.safeParse({ portal_id: 1, api_base_url: 'https://attacker.example/' }).success).toBe(false);
    expect(hubspotSettingsSchema.safeParse({ portal_id: 1, api_base_url: 'http://api.hubapi.com' }).success).toBe(false);
    expect(hubspotSettingsSchema.safeParse({ portal_id: 1, page_size: 201 }).success).toBe(false);
    expect(hubspotCredentialsSchema.safeParse({ access_token: 'pat-na1-x' }).success).toBe(true);
    expect(hubspotCredentialsSchema.safeParse({ client_id: 'a', client_secret: 'b' }).success).toBe(false);
    expect(hubspotCredentialsSchema.safeParse({ client_id: 'a', client_secret: 'b', refresh_token: 'c' }).success).toBe(true);
  });
});

describe('the HubSpot connector: reading and writing', () => {
  it('When an account holds more contacts than one search answers (10,000), then every one is read once, and the next read gives only what changed', async () => {
    const h = await startHub();
    const seeded = h.state.crm.seed(10_250, person);
    const session = await pluginFor({ overlapMs: 0 }).open(contextFor(h, { access_token: h.state.privateToken() }, { page_size: 200 }));

    const pages = await readAll(session);
    const keys = pages.flatMap((p) => p.records.map((r) => r.key));
    expect(new Set(keys).size).toBe(10_250);
    expect(keys.length).toBe(10_250);
    expect(pages[0].records[0]).toEqual({
      key: `contact:${seeded[0].id}`,
      contact: { address: '100 Main St, Louisville, KY 40219', email: 'p0@acme.com', phone: '+1 502 713 4000', country: 'US' },
    });
    // Never an `after` past the cap (HubSpot's 400): each page is a new search after the last id.
    expect(h.state.calls.filter((c) => c.status === 400)).toEqual([]);
    expect(h.state.crm.searches.every((s) => s.after === undefined && (s.sorts as { propertyName: string }[])[0].propertyName === 'hs_object_id')).toBe(true);
    const watermark = pages.at(-1)!.watermark;
    expect(watermark.contacts).toEqual({ since: expect.any(String) });

    h.state.crm.edit(seeded[42].id, { phone: '+1 502 555 0101' });
    // A window ends before the millisecond its read starts: an edit of that very millisecond is the next window's.
    await new Promise((r) => setTimeout(r, 5));
    const next = await readAll(session, watermark);
    expect(next.flatMap((p) => p.records.map((r) => r.key))).toEqual([`contact:${seeded[42].id}`]);
  }, 60_000);

  it('When verdicts are written back while the window is paged, then no contact is skipped, in batches of at most 100', async () => {
    const h = await startHub();
    setUpProperties(h.state);
    const seeded = h.state.crm.seed(450, person);
    const session = await pluginFor().open(contextFor(h, { access_token: h.state.privateToken() }, { page_size: 70 }));
    const read: string[] = [];
    for await (const page of session.changes({})) {
      read.push(...page.records.map((r) => r.key));
      // Our write moves each contact's lastmodifieddate past the window: an offset-paged search would skip as many.
      const outcomes = await session.writeBack(page.records.map((r) => ({ key: r.key, email, validatedAt: AT })));
      expect(outcomes.find((o) => !o.ok)).toBeUndefined();
    }
    expect(read.length).toBe(450);
    expect(new Set(read).size).toBe(450);
    expect(seeded.every((c) => h.state.crm.contacts.get(c.id)!.properties.cv_email_status === 'risky')).toBe(true);
    expect(Math.max(...h.state.crm.batchSizes)).toBeLessThanOrEqual(100);
    expect(h.state.crm.batchSizes.reduce((a, b) => a + b, 0)).toBe(450);
  });
});
