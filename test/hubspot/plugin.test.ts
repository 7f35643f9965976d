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
import { CV_PROPERTIES, OPTIONAL_PROPERTIES, REQUIRED_PROPERTIES } from '../../connectors/hubspot/properties.js';
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
    await h.state.crm.settled();
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

describe('the HubSpot connector: write-back', () => {
  it('When verdicts are written, then each goes into its cv_ property, a vocabulary\'s value into its enumeration, and an empty verdict clears the property', async () => {
    const h = await startHub();
    setUpProperties(h.state);
    const [c] = h.state.crm.seed(1, person);
    h.state.crm.contacts.get(c.id)!.properties.cv_phone_carrier = 'Old Carrier';
    const session = await pluginFor().open(contextFor(h, { access_token: h.state.privateToken() }));
    const outcomes = await session.writeBack([{ key: `contact:${c.id}`, address, email, phone, validatedAt: AT }]);
    expect(outcomes).toEqual([{ key: `contact:${c.id}`, ok: true }]);
    expect(h.state.crm.contacts.get(c.id)!.properties).toMatchObject({
      cv_address_status: 'verified', cv_address_dpv: 'Y', cv_address_standardized: '6007 APPLEGATE LN LOUISVILLE KY 40219-1412',
      cv_email_status: 'risky', cv_email_risk: 'medium', cv_email_suggestion: null,
      cv_phone_status: 'valid', cv_phone_type: 'fixed_or_mobile', cv_phone_e164: '+15027134410', cv_phone_carrier: null, cv_verified_at: AT,
      // The contact's own properties are never written.
      email: 'p0@acme.com', address: '100 Main St',
    });
  });

  it('When a contact was deleted, or a property is missing, then those records fail with HubSpot\'s words and the others are saved', async () => {
    const h = await startHub();
    setUpProperties(h.state);
    const [a, b] = h.state.crm.seed(2, person);
    h.state.crm.contacts.delete(b.id);
    const session = await pluginFor().open(contextFor(h, { access_token: h.state.privateToken() }));
    const items: WriteBackItem[] = [
      { key: `contact:${a.id}`, email, validatedAt: AT }, { key: `contact:${b.id}`, email, validatedAt: AT }, { key: 'Lead:00Q', email, validatedAt: AT },
    ];
    const outcomes = await session.writeBack(items);
    expect(outcomes[0]).toEqual({ key: `contact:${a.id}`, ok: true });
    expect(outcomes[1]).toMatchObject({ ok: false, error: expect.stringMatching(/^OBJECT_NOT_FOUND: Could not get some CONTACT objects/) });
    expect(outcomes[2]).toMatchObject({ ok: false, error: expect.stringMatching(/^INVALID_KEY/) });

    // The properties deleted in HubSpot: the whole batch fails alike, once (not narrowed contact by contact).
    h.state.crm.properties.delete('cv_email_status');
    const before = h.state.crm.batchSizes.length;
    const many = h.state.crm.seed(5, person);
    const refused = await session.writeBack(many.map((c) => ({ key: `contact:${c.id}`, email, validatedAt: AT })));
    expect(refused.every((o) => !o.ok && /VALIDATION_ERROR: Property values were not valid.*PROPERTY_DOESNT_EXIST/.test(o.error ?? ''))).toBe(true);
    expect(h.state.crm.batchSizes.length - before).toBe(1);
  });
});

describe('the HubSpot connector: rate limits', () => {
  it('When HubSpot\'s ten-second window is full (429 TEN_SECONDLY_ROLLING), then each call waits the window HubSpot names and every contact is read', async () => {
    const h = await startHub({ window: { max: 3, ms: 300 } });
    h.state.crm.seed(1000, person);
    const session = await pluginFor().open(contextFor(h, { access_token: h.state.privateToken() }));
    const pages = await readAll(session);
    expect(new Set(pages.flatMap((p) => p.records.map((r) => r.key))).size).toBe(1000);
    const throttled = h.state.calls.filter((c) => c.status === 429).length;
    expect(throttled).toBeGreaterThan(0);
    // The waits are HubSpot's interval (X-HubSpot-RateLimit-Interval-Milliseconds), not a guess.
    expect(sleeps.length).toBe(throttled);
    expect(new Set(sleeps)).toEqual(new Set([300]));
  });

  it('When the daily limit is reached (429 DAILY), then the read ends rate_limited at once, and the next goes on from the watermark without losing a contact', async () => {
    const h = await startHub();
    h.state.crm.seed(500, person);
    const session = await pluginFor().open(contextFor(h, { access_token: h.state.privateToken() }));
    const read: string[] = [];
    let watermark: Watermark = {};
    const pages = session.changes({})[Symbol.asyncIterator]();
    for (let i = 0; i < 2; i++) {
      const { value } = await pages.next() as { value: ChangePage };
      read.push(...value.records.map((r) => r.key));
      watermark = value.watermark;
    }
    h.state.forced.push({ status: 429, policy: 'DAILY' });
    const err = await failureOf(pages.next());
    expect(err.reason).toBe('rate_limited');
    expect(err.platformMessage).toMatch(/^429 DAILY: You have reached your daily limit/);
    expect(sleeps).toEqual([]);

    for (const page of await readAll(session, watermark)) read.push(...page.records.map((r) => r.key));
    expect(read.length).toBe(500);
    expect(new Set(read).size).toBe(500);
  });
});

describe('the HubSpot connector: OAuth', () => {
  it('When a connector holds an OAuth grant, then an access token is granted, renewed before it expires, and at once when HubSpot answers 401', async () => {
    const h = await startHub({ accessTokenSeconds: 2 });
    h.state.crm.seed(3, person);
    const credentials = { client_id: h.state.app.clientId, client_secret: h.state.app.clientSecret, refresh_token: h.state.refreshToken() };
    const session = await pluginFor().open(contextFor(h, credentials));
    expect(h.state.grants).toBe(1);
    await readAll(session);
    expect(h.state.grants).toBe(1);
    // Past half its life (a 2 s token): renewed before the call, which is never refused.
    await new Promise((r) => setTimeout(r, 1100));
    await readAll(session);
    expect(h.state.grants).toBe(2);
    expect(h.state.calls.filter((c) => c.status === 401)).toEqual([]);
    // Revoked or expired early: one 401, one new grant, the call again.
    h.state.expireAccessTokens();
    expect((await readAll(session)).flatMap((p) => p.records)).toHaveLength(3);
    expect(h.state.grants).toBe(3);
    expect(h.state.calls.filter((c) => c.status === 401)).toHaveLength(1);
  });

  it('When the refresh token is refused, then opening fails auth_failed with HubSpot\'s words', async () => {
    const h = await startHub();
    const err = await failureOf(pluginFor().open(contextFor(h, { client_id: h.state.app.clientId, client_secret: h.state.app.clientSecret, refresh_token: 'na1-revoked' })));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toBe('400 BAD_REFRESH_TOKEN: missing or unknown refresh token');
  });
});

describe('the HubSpot connector: next actions', () => {
  it('When an account was set up before the next-action properties, then verdicts are written without them and the check warns; once set up, each module\'s next action goes beside its status', async () => {
    const h = await startHub();
    setUpProperties(h.state, REQUIRED_PROPERTIES);
    const [c] = h.state.crm.seed(1, person);
    const plugin = pluginFor();
    const context = contextFor(h, { access_token: h.state.privateToken(ALL_SCOPES) });
    const item = (at: string): WriteBackItem => ({
      key: `contact:${c.id}`, address: { ...address, next_action: 'accept' }, email: { ...email, next_action: 'confirm' }, phone: { ...phone, next_action: 'fix' }, validatedAt: at,
    });

    const before = await (await plugin.open(context)).writeBack([item(AT)]);
    const writtenBefore = { ...h.state.crm.contacts.get(c.id)!.properties };
    const warned = await plugin.check(context);
    const done = await plugin.setUp!(context);
    const after = await (await plugin.open(context)).writeBack([item('2026-11-25T10:00:00.000Z')]);

    expect(before).toEqual([{ key: `contact:${c.id}`, ok: true }]);
    expect(writtenBefore).toMatchObject({ cv_email_status: 'risky', cv_phone_status: 'valid', cv_verified_at: AT });
    expect(OPTIONAL_PROPERTIES.map((name) => writtenBefore[name] ?? null)).toEqual([null, null, null]);
    expect(warned).toEqual([expect.objectContaining({ code: 'field_missing', severity: 'warning', message: expect.stringContaining(OPTIONAL_PROPERTIES.join(', ')) })]);
    expect(done).toEqual([`Created the contact properties ${OPTIONAL_PROPERTIES.join(', ')}.`]);
    expect(after).toEqual([{ key: `contact:${c.id}`, ok: true }]);
    expect(h.state.crm.properties.get('cv_email_next_action')!.options.map((o) => o.value)).toEqual(['accept', 'confirm', 'fix']);
    expect(h.state.crm.contacts.get(c.id)!.properties).toMatchObject({
      cv_address_next_action: 'accept', cv_email_next_action: 'confirm', cv_phone_next_action: 'fix', cv_email_status: 'risky',
    });
  });
});

describe('the HubSpot connector: check and set-up', () => {
  it('When the token lacks a scope and the cv_ properties are missing, then the check names them; the set-up creates them and the check passes', async () => {
    const h = await startHub();
    const plugin = pluginFor();
    const narrow = await plugin.check(contextFor(h, { access_token: h.state.privateToken(['crm.objects.contacts.read', 'crm.objects.contacts.write']) }));
    expect(narrow.map((p) => [p.code, p.severity])).toEqual([['scope_missing', undefined], ['field_missing', undefined], ['field_missing', 'warning']]);
    expect(narrow[0].message).toBe('The token lacks the scopes crm.schemas.contacts.write.');
    expect(narrow[1].message).toBe(`HubSpot contacts have no ${REQUIRED_PROPERTIES.join(', ')} properties.`);
    expect(narrow[2].message).toBe('HubSpot contacts have no cv_address_next_action, cv_email_next_action, cv_phone_next_action properties: runs write every verdict without them, and the next actions once they are there.');

    const context = contextFor(h, { access_token: h.state.privateToken(ALL_SCOPES) });
    expect(await plugin.setUp!(context)).toEqual([
      'Created the contact property group "Contact Validator" (contact_validator).',
      `Created the contact properties ${CV_PROPERTIES.join(', ')}.`,
    ]);
    expect(h.state.crm.properties.get('cv_address_status')).toMatchObject({ type: 'enumeration', groupName: 'contact_validator' });
    expect(h.state.crm.properties.get('cv_address_status')!.options.map((o) => o.value)).toEqual(['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid']);
    expect(await plugin.check(context)).toEqual([]);
    expect(await plugin.setUp!(context)).toEqual(['Nothing to do: the property group and every property are there.']);

    // A look-alike property (text where we write an enumeration) is named, not overwritten.
    h.state.crm.properties.get('cv_phone_type')!.type = 'string';
    expect(await plugin.check(context)).toEqual([expect.objectContaining({ code: 'field_not_writable', message: expect.stringContaining('cv_phone_type is a string property, not enumeration') })]);
  });

  it('When the token is refused or belongs to another account, then the check says so as credentials_refused', async () => {
    const h = await startHub();
    const plugin = pluginFor();
    const refused = await plugin.check(contextFor(h, { access_token: 'pat-na1-unknown' }));
    expect(refused).toEqual([expect.objectContaining({ code: 'credentials_refused', message: expect.stringContaining('401') })]);
    const other = await plugin.check(contextFor(h, { access_token: h.state.privateToken() }, { portal_id: 1 }));
    expect(other).toEqual([expect.objectContaining({ code: 'credentials_refused', message: `The token belongs to HubSpot account ${h.state.hubId}, not to the account 1 of the settings.` })]);
  });
});

describe('the HubSpot connector: discover', () => {
  it('When the catalog is asked for, then contacts list the properties read with their roles and the cv_ ones, present or not, writable once set up', async () => {
    const h = await startHub();
    setUpProperties(h.state, ['cv_email_status']);
    const plugin = pluginFor();
    const catalog = await plugin.discover!(contextFor(h, { access_token: h.state.privateToken() }));
    expect(catalog.objects.map((o) => [o.name, o.readable, o.writable])).toEqual([['contacts', true, true]]);
    const fields = new Map(catalog.objects[0].fields.map((f) => [f.name, f]));
    expect(fields.get('email')).toMatchObject({ role: 'email', readable: true, writable: false, present: true });
    expect(fields.get('zip')).toMatchObject({ role: 'address', present: true });
    expect(fields.get('lastmodifieddate')).toMatchObject({ role: 'watermark' });
    expect(fields.get('cv_email_status')).toMatchObject({ role: 'verdict', type: 'enumeration', present: true, writable: true });
    expect(fields.get('cv_phone_status')).toMatchObject({ role: 'verdict', present: false, writable: false });
    expect([...fields.keys()].filter((n) => n.startsWith('cv_'))).toEqual(CV_PROPERTIES);

    const readOnly = await plugin.discover!(contextFor(h, { access_token: h.state.privateToken(['crm.objects.contacts.read']) }));
    expect(readOnly.objects[0]).toMatchObject({ readable: true, writable: false });
  });
});

