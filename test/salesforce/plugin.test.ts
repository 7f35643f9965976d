import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSalesforcePlugin, salesforceCredentialsSchema, salesforcePlugin, salesforceSettingsSchema, salesforceWriteBackSchema,
  type SalesforceCredentials,
} from '../../connectors/salesforce/index.js';
import { CUSTOM_FIELDS } from '../../connectors/salesforce/mapping.js';
import { FIELD_DEFS, fieldXml } from '../../connectors/salesforce/fields.js';
import { metadataFiles } from '../../connectors/salesforce/metadata-files.js';
import { ADDRESS_STATUSES } from '../../src/validation/types.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { ConnectorError, type ChangePage, type ConnectorSession, type Watermark, type WriteBackItem } from '../../src/sync/plugin.js';
import type { AddressResult, EmailResult, PhoneResult } from '../../src/validation/types.js';
import { startFakeOrg, type FakeOrg, type FakeOrgOptions } from './fake-org.js';

let org: FakeOrg;
afterEach(async () => { await org?.close(); });

const log = { info() {}, warn() {} };
const sleeps: number[] = [];
const plugin = createSalesforcePlugin({
  retry: { attempts: 4, baseDelayMs: 2, maxDelayMs: 2000 },
  sleep: async (ms) => { sleeps.push(ms); },
});

async function open(o: FakeOrg, opts: { settings?: object; credentials?: SalesforceCredentials; overwrite?: boolean; usage?: [number, number][] } = {}) {
  return plugin.open({
    settings: salesforceSettingsSchema.parse({ login_url: o.url, page_size: 200, ...opts.settings }),
    credentials: opts.credentials ?? { client_id: o.state.clientId, client_secret: o.state.clientSecret },
    writeBack: salesforceWriteBackSchema.parse({ overwrite_address: opts.overwrite ?? false }),
    onApiUsage: (used, limit) => opts.usage?.push([used, limit]),
    log,
    // The core's way out: the outbound guard, the local org's origin allowed as CONNECTOR_ALLOW_PRIVATE allows it.
    fetch: createGuardedHttp({ privateOrigins: [o.url] }).fetch,
  });
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

async function startOrg(options: FakeOrgOptions = {}) {
  org = await startFakeOrg(options);
  sleeps.length = 0;
  return org;
}

const address = (over: Partial<AddressResult> = {}): AddressResult => ({
  status: 'corrected', standardized: '1600 AMPHITHEATRE PKWY STE 100, MOUNTAIN VIEW CA 94043-1351', dpv: 'Y', zip4: '1351', country: 'US',
  components: {
    primary_number: '1600', street_predirection: null, street_name: 'AMPHITHEATRE', street_suffix: 'PKWY', street_postdirection: null,
    secondary_designator: 'STE', secondary_number: '100', city: 'MOUNTAIN VIEW', state: 'CA', postal_code: '94043', plus4: '1351', country: 'US',
  },
  footnotes: [], evidence: 'delivery_point', sources: ['usps'], location: { lat: 37.4224, lon: -122.0842, precision: 'rooftop' }, ...over,
});
const email: EmailResult = { status: 'valid', risk: 'low', smtp: 'deliverable', reason: 'accepted', normalized: 'a@example.com', suggestion: null, disposable: false, role: false, free: false };
const phone: PhoneResult = { status: 'valid', type: 'mobile', carrier: 'Verizon Wireless', carrier_source: 'allocation', e164: '+16505550100', country: 'US' };

describe('the Salesforce connector: reading changes', () => {
  it('When it reads an org for the first time, then every Contact and Lead comes, a page per API page, with the watermark', async () => {
    await startOrg();
    const contacts = org.state.seed('Contact', 450, (i) => ({ Email: `c${i}@example.com` }));
    const leads = org.state.seed('Lead', 3);
    const session = await open(org);

    const pages = await readAll(session);

    expect(pages.map((p) => p.records.length)).toEqual([200, 200, 50, 3]);
    expect(pages.flatMap((p) => p.records.map((r) => r.key))).toEqual([
      ...contacts.map((c) => `Contact:${c.Id}`), ...leads.map((l) => `Lead:${l.Id}`),
    ]);
    expect(pages[0].watermark).toEqual({ Contact: { systemModstamp: '2026-11-24T10:03:20.000Z', id: contacts[199].Id } });
    expect(pages[3].watermark).toEqual({
      Contact: { systemModstamp: '2026-11-24T10:07:30.000Z', id: contacts[449].Id },
      Lead: { systemModstamp: '2026-11-24T10:07:33.000Z', id: leads[2].Id },
    });
    expect(JSON.parse(JSON.stringify(pages[3].watermark))).toEqual(pages[3].watermark);
    expect(org.state.calls).toMatchObject({ token: 1, query: 2, queryMore: 2 });
    expect(org.state.requests[0].headers['sforce-query-options']).toBe('batchSize=200');
    expect(decodeURIComponent(org.state.requests[0].path)).toContain(
      'SELECT Id, SystemModstamp, MailingStreet, MailingCity, MailingState, MailingPostalCode, MailingCountry, Email, Phone, MobilePhone FROM Contact ORDER BY SystemModstamp ASC, Id ASC');
  });

  it('When records hold addresses, e-mails and phones, then they map to contacts as docs/connectors.md says', async () => {
    await startOrg();
    const [known, unknown, empty] = org.state.seed('Contact', 3, (i) => [
      { MailingStreet: '1600 Amphitheatre Pkwy\nSuite 100', MailingCity: 'Mountain View', MailingState: 'CA', MailingPostalCode: '94043', MailingCountry: 'United States', Email: ' a@example.com ', MobilePhone: '+1 650 555 0100' },
      { MailingStreet: '1 Main St', MailingCountry: 'Narnia', Phone: '020 7946 0000', MobilePhone: '07700 900000' },
      { MailingCountry: 'usa' },
    ][i]);
    const [lead] = org.state.seed('Lead', 1, () => ({ Street: '10 Downing St', City: 'London', PostalCode: 'SW1A 2AA', Country: 'UK', Email: 'pm@example.gov.uk' }));
    const session = await open(org);

    const records = (await readAll(session)).flatMap((p) => p.records);

    expect(records).toEqual([
      { key: `Contact:${known.Id}`, contact: { address: '1600 Amphitheatre Pkwy, Suite 100, Mountain View, CA, 94043', email: 'a@example.com', phone: '+1 650 555 0100', country: 'US' } },
      { key: `Contact:${unknown.Id}`, contact: { address: '1 Main St, Narnia', phone: '020 7946 0000' } },
      { key: `Contact:${empty.Id}`, contact: { country: 'US' } },
      { key: `Lead:${lead.Id}`, contact: { address: '10 Downing St, London, SW1A 2AA', email: 'pm@example.gov.uk', country: 'GB' } },
    ]);
  });

  it('When the watermark is given, then only records changed since, and those inside the overlap, are read', async () => {
    await startOrg();
    const contacts = org.state.seed('Contact', 10, () => ({}), 10 * 60_000);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    const first = await readAll(session);
    org.state.advance(3600_000);
    org.state.edit(contacts[7].Id as string, { Email: 'new@example.com' });
    org.state.edit(contacts[2].Id as string, { Phone: '+1 650 555 0199' });

    const second = await readAll(session, first.at(-1)!.watermark);

    // The last record read is inside the 5-minute overlap: read again, the core's change detection drops it.
    expect(second.flatMap((p) => p.records)).toEqual([
      { key: `Contact:${contacts[9].Id}`, contact: {} },
      { key: `Contact:${contacts[7].Id}`, contact: { email: 'new@example.com' } },
      { key: `Contact:${contacts[2].Id}`, contact: { phone: '+1 650 555 0199' } },
    ]);
    expect(decodeURIComponent(org.state.requests.at(-1)!.path)).toContain('WHERE SystemModstamp >= 2026-11-24T11:35:00Z ORDER BY');
    expect(second.at(-1)!.watermark).toEqual({ Contact: { systemModstamp: '2026-11-24T12:40:02.000Z', id: contacts[2].Id } });
  });

  it('When a record commits late with a stamp just before the watermark, then the overlap reads it and the watermark holds', async () => {
    await startOrg();
    const contacts = org.state.seed('Contact', 5);
    const session = await open(org);
    const watermark = (await readAll(session)).at(-1)!.watermark;
    org.state.record(contacts[0].Id as string)!.row.SystemModstamp = Date.parse('2026-11-24T10:00:04Z');

    const pages = await readAll(session, watermark);

    expect(pages.flatMap((p) => p.records.map((r) => r.key))).toContain(`Contact:${contacts[0].Id}`);
    expect(pages.at(-1)!.watermark).toEqual(watermark);
  });

  it('When nothing changed, then only the record inside the overlap comes again, and the watermark stays', async () => {
    await startOrg();
    const leads = org.state.seed('Lead', 3, () => ({}), 10 * 60_000);
    const session = await open(org, { settings: { objects: ['Lead'] } });
    const watermark = (await readAll(session)).at(-1)!.watermark;
    org.state.advance(3600_000);
    const pages = await readAll(session, watermark);
    expect(pages.map((p) => p.records.map((r) => r.key))).toEqual([[`Lead:${leads[2].Id}`]]);
    expect(pages[0].watermark).toEqual(watermark);
  });

  it('When the query cursor expired between pages, then the read starts again from the last record read', async () => {
    await startOrg();
    const contacts = org.state.seed('Contact', 450);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    const keys: string[] = [];
    for await (const page of session.changes({})) {
      keys.push(...page.records.map((r) => r.key));
      if (keys.length === 200) org.state.cursors.clear();
    }
    expect(new Set(keys)).toEqual(new Set(contacts.map((c) => `Contact:${c.Id}`)));
  });
});

describe('the Salesforce connector: writing verdicts back', () => {
  it('When verdicts are written, then only the present modules\' fields and the time are set, and a rejected save is reported', async () => {
    await startOrg();
    const [a, b, c] = org.state.seed('Contact', 3, () => ({ MailingStreet: '1600 amphitheatre', CV_Phone_Status__c: 'invalid' }));
    org.state.rejectOnSave.add(c.Id as string);
    const session = await open(org);
    const items: WriteBackItem[] = [
      { key: `Contact:${a.Id}`, address: address(), email, phone, validatedAt: '2026-11-25T08:00:00.000Z' },
      { key: `Contact:${b.Id}`, email: { ...email, status: 'risky', risk: 'high' }, validatedAt: '2026-11-25T08:00:00.000Z' },
      { key: `Contact:${c.Id}`, email, validatedAt: '2026-11-25T08:00:00.000Z' },
      { key: 'Account:001000000000001AAA', email, validatedAt: '2026-11-25T08:00:00.000Z' },
    ];

    const outcomes = await session.writeBack(items);

    expect(outcomes).toEqual([
      { key: `Contact:${a.Id}`, ok: true },
      { key: `Contact:${b.Id}`, ok: true },
      { key: `Contact:${c.Id}`, ok: false, error: 'FIELD_CUSTOM_VALIDATION_EXCEPTION: Mailing address must be complete' },
      { key: 'Account:001000000000001AAA', ok: false, error: expect.stringMatching(/^INVALID_KEY: /) },
    ]);
    expect(org.state.get(a.Id as string)).toMatchObject({
      CV_Address_Status__c: 'corrected', CV_Address_DPV__c: 'Y', CV_Address_Standardized__c: '1600 AMPHITHEATRE PKWY STE 100, MOUNTAIN VIEW CA 94043-1351',
      CV_Email_Status__c: 'valid', CV_Email_Risk__c: 'low', CV_Phone_Status__c: 'valid', CV_Phone_Type__c: 'mobile',
      CV_Phone_Carrier__c: 'Verizon Wireless', CV_Validated_At__c: '2026-11-25T08:00:00.000+0000', MailingStreet: '1600 amphitheatre',
    });
    expect(org.state.get(b.Id as string)).toMatchObject({ CV_Email_Status__c: 'risky', CV_Email_Risk__c: 'high', CV_Address_Status__c: null, CV_Phone_Status__c: 'invalid' });
    expect(org.state.calls['collections.update']).toBe(1);
  });

  it('When the org deployed the metadata before the next-action fields, then verdicts are written without them and the check warns; once set up, each module\'s next action goes beside its status', async () => {
    await startOrg();
    const older = ['Contact.CV_Address_Next_Action__c', 'Contact.CV_Email_Next_Action__c', 'Contact.CV_Phone_Next_Action__c'];
    for (const field of older) org.state.missingFields.add(field);
    const [a] = org.state.seed('Contact', 1);
    const context = {
      settings: salesforceSettingsSchema.parse({ login_url: org.url, objects: ['Contact'] }),
      credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
      writeBack: salesforceWriteBackSchema.parse({}), log, fetch: createGuardedHttp({ privateOrigins: [org.url] }).fetch,
    };
    const item = (at: string): WriteBackItem => ({
      key: `Contact:${a.Id}`, address: { ...address(), next_action: 'confirm' }, email: { ...email, next_action: 'accept' }, phone: { ...phone, next_action: 'fix' }, validatedAt: at,
    });

    const before = await (await plugin.open(context)).writeBack([item('2026-11-25T08:00:00.000Z')]);
    const writtenBefore = { ...org.state.get(a.Id as string) };
    const warned = await plugin.check(context);
    const done = await plugin.setUp!(context);
    const after = await (await plugin.open(context)).writeBack([item('2026-11-25T09:00:00.000Z')]);

    expect(before).toEqual([{ key: `Contact:${a.Id}`, ok: true }]);
    expect(writtenBefore).toMatchObject({ CV_Address_Status__c: 'corrected', CV_Email_Status__c: 'valid', CV_Phone_Status__c: 'valid' });
    expect(['CV_Address_Next_Action__c', 'CV_Email_Next_Action__c', 'CV_Phone_Next_Action__c'].map((name) => writtenBefore[name] ?? null)).toEqual([null, null, null]);
    expect(warned).toEqual([{
      code: 'field_missing', severity: 'warning', fix: expect.any(String),
      message: 'Contact has no Contact.CV_Address_Next_Action__c, Contact.CV_Email_Next_Action__c, Contact.CV_Phone_Next_Action__c (or the run-as user cannot see it): runs write every verdict without it, and the next actions once it is there.',
    }]);
    expect(done).toEqual(expect.arrayContaining(['created the field Contact.CV_Email_Next_Action__c (CV Email Next Action)']));
    expect(after).toEqual([{ key: `Contact:${a.Id}`, ok: true }]);
    expect(org.state.get(a.Id as string)).toMatchObject({
      CV_Address_Next_Action__c: 'confirm', CV_Email_Next_Action__c: 'accept', CV_Phone_Next_Action__c: 'fix', CV_Validated_At__c: '2026-11-25T09:00:00.000+0000',
    });
  });

  it('When overwrite_address is on, then a verified or corrected address replaces the object\'s address fields, and others do not', async () => {
    await startOrg();
    const [contact, other] = org.state.seed('Contact', 2, () => ({ MailingStreet: '1600 amphitheatre', MailingCity: 'mtn view', MailingCountry: 'US' }));
    const [lead] = org.state.seed('Lead', 1, () => ({ Street: '1600 amphitheatre' }));
    const session = await open(org, { overwrite: true });

    await session.writeBack([
      { key: `Contact:${contact.Id}`, address: address(), validatedAt: '2026-11-25T08:00:00Z' },
      { key: `Contact:${other.Id}`, address: address({ status: 'ambiguous' }), validatedAt: '2026-11-25T08:00:00Z' },
      { key: `Lead:${lead.Id}`, address: address({ status: 'verified', components: { ...address().components, plus4: null, secondary_designator: null, secondary_number: null } }), validatedAt: '2026-11-25T08:00:00Z' },
    ]);

    expect(org.state.get(contact.Id as string)).toMatchObject({
      MailingStreet: '1600 AMPHITHEATRE PKWY STE 100', MailingCity: 'MOUNTAIN VIEW', MailingState: 'CA', MailingPostalCode: '94043-1351', MailingCountry: 'US',
      // Where it is goes with the address (issue 50): the standard geolocation fields, the precision as Salesforce names it.
      MailingLatitude: 37.4224, MailingLongitude: -122.0842, MailingGeocodeAccuracy: 'Address',
    });
    expect(org.state.get(other.Id as string)).toMatchObject({ MailingStreet: '1600 amphitheatre', MailingCity: 'mtn view', CV_Address_Status__c: 'ambiguous' });
    expect(org.state.get(other.Id as string)?.MailingLatitude ?? null).toBeNull();
    expect(org.state.get(lead.Id as string)).toMatchObject({
      Street: '1600 AMPHITHEATRE PKWY', City: 'MOUNTAIN VIEW', State: 'CA', PostalCode: '94043', Latitude: 37.4224, Longitude: -122.0842, GeocodeAccuracy: 'Address',
    });
    expect(org.state.calls['collections.update']).toBe(2);
  });

  it('When more than 200 records are written, then they go 200 a call', async () => {
    await startOrg();
    const contacts = org.state.seed('Contact', 450);
    const session = await open(org);
    const outcomes = await session.writeBack(contacts.map((c) => ({ key: `Contact:${c.Id}`, email, validatedAt: '2026-11-25T08:00:00Z' })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(org.state.calls['collections.update']).toBe(3);
  });
});

describe('the Salesforce connector: sessions, limits and failures', () => {
  it('When the session expires, then it authenticates again once and the call goes through', async () => {
    await startOrg();
    org.state.seed('Contact', 3);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    org.state.expireSessions();

    const pages = await readAll(session);

    expect(pages[0].records).toHaveLength(3);
    expect(org.state.tokenRequests).toBe(2);
  });

  it('When the credentials are refused on a new grant mid-run, then the run stops with auth_failed', async () => {
    await startOrg();
    const session = await open(org);
    org.state.expireSessions();
    org.state.clientSecret = 'rotated';
    const err = await failureOf(readAll(session));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toMatch(/invalid client credentials/);
  });

  it('When the session expires on the write-back, even just after one expired on the read, then it authenticates again and the write goes through', async () => {
    await startOrg();
    const [contact] = org.state.seed('Contact', 1);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    org.state.expireSessions();
    await readAll(session);
    org.state.expireSessionsAtNextWrite();

    const outcomes = await session.writeBack([{ key: `Contact:${contact.Id}`, email, validatedAt: '2026-11-25T08:00:00Z' }]);

    expect(outcomes).toEqual([{ key: `Contact:${contact.Id}`, ok: true }]);
    expect(org.state.tokenRequests).toBe(3);
    expect(org.state.get(contact.Id as string)).toMatchObject({ CV_Email_Status__c: 'valid' });
  });

  it('When the new session is refused on the write-back too, then the write stops with auth_failed after one new grant', async () => {
    await startOrg();
    const [contact] = org.state.seed('Contact', 1);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    await readAll(session);
    org.state.refuseAllSessions = true;

    const err = await failureOf(session.writeBack([{ key: `Contact:${contact.Id}`, email, validatedAt: '2026-11-25T08:00:00Z' }]));

    expect(err.reason).toBe('auth_failed');
    expect(org.state.tokenRequests).toBe(2);
    expect(org.state.get(contact.Id as string)).toMatchObject({ CV_Email_Status__c: null });
  });

  it('When the new session is refused too, then it stops with auth_failed after one new grant, not in a loop', async () => {
    await startOrg();
    const session = await open(org);
    org.state.refuseAllSessions = true;
    const err = await failureOf(readAll(session));
    expect(err.reason).toBe('auth_failed');
    expect(org.state.tokenRequests).toBe(2);
  });

  it('When the org cannot be reached, then the call is retried and the run stops with api_error', async () => {
    await startOrg();
    const session = await open(org);
    await org.close();
    const err = await failureOf(readAll(session));
    expect(err.reason).toBe('api_error');
    expect(sleeps).toHaveLength(3);
  });

  it('When the API answers 503 twice, then the read retries and goes on', async () => {
    await startOrg();
    org.state.seed('Contact', 2);
    const session = await open(org, { settings: { objects: ['Contact'] } });
    org.state.failNext(2, 503);
    const pages = await readAll(session);
    expect(pages[0].records).toHaveLength(2);
    expect(org.state.calls['fault.503']).toBe(2);
    expect(sleeps).toHaveLength(2);
  });

  it('When a write-back gets 429 with Retry-After, then it waits as told and writes', async () => {
    await startOrg();
    const [c] = org.state.seed('Contact', 1);
    const session = await open(org);
    org.state.failNext(1, 429, [{ message: 'Too many requests', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], { method: 'PATCH', headers: { 'Retry-After': '1' } });
    const outcomes = await session.writeBack([{ key: `Contact:${c.Id}`, email, validatedAt: '2026-11-25T08:00:00Z' }]);
    expect(outcomes).toEqual([{ key: `Contact:${c.Id}`, ok: true }]);
    expect(sleeps).toEqual([1000]);
  });

  it('When the API keeps answering 503, then the run stops with api_error and Salesforce\'s words', async () => {
    await startOrg();
    const session = await open(org);
    org.state.failNext(10, 503);
    const err = await failureOf(readAll(session));
    expect(err).toMatchObject({ reason: 'api_error', platformMessage: 'SERVER_UNAVAILABLE: Server temporarily unavailable' });
    expect(org.state.calls['fault.503']).toBe(4);
  });

  it('When the org answers REQUEST_LIMIT_EXCEEDED, then it backs off and stops with rate_limited', async () => {
    await startOrg();
    const session = await open(org);
    org.state.failNext(10, 403);
    const err = await failureOf(readAll(session));
    expect(err).toMatchObject({ reason: 'rate_limited', platformMessage: 'REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.' });
    expect(sleeps).toHaveLength(3);
    expect(sleeps[2]).toBeGreaterThanOrEqual(4);
  });

  it('When the credentials are wrong, then opening fails with auth_failed', async () => {
    await startOrg();
    const err = await failureOf(open(org, { credentials: { client_id: org.state.clientId, client_secret: 'wrong' } }));
    expect(err).toMatchObject({ reason: 'auth_failed', platformMessage: 'invalid_client: invalid client credentials' });
  });

  it('When the run would pass its share of the daily API allowance, then it stops with rate_limited before', async () => {
    await startOrg({ apiLimit: 10 });
    org.state.seed('Contact', 1000);
    org.state.seed('Lead', 1);
    const usage: [number, number][] = [];
    const session = await open(org, { usage, settings: { api_usage_max_share: 0.5 } });
    const pages: ChangePage[] = [];
    const err = await failureOf((async () => { for await (const p of session.changes({})) pages.push(p); })());
    expect(err.reason).toBe('rate_limited');
    expect(pages).toHaveLength(5);
    expect(usage.at(-1)).toEqual([5, 10]);
    expect(org.state.apiUsage).toBe(5);
  });

  it('When the credentials are a JWT bearer key, then it logs in with a signed assertion', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await startOrg({ jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    org.state.seed('Lead', 1);
    const credentials = salesforceCredentialsSchema.parse({
      client_id: org.state.clientId, username: org.state.username, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const session = await open(org, { credentials, settings: { objects: ['Lead'] } });
    expect((await readAll(session))[0].records).toHaveLength(1);
    org.state.expireSessions();
    expect(await readAll(session, {})).toHaveLength(1);
    expect(org.state.tokenRequests).toBe(2);
  });
});

describe('the Salesforce connector: settings', () => {
  it('When only login_url is given, then the defaults of docs/connectors.md apply', () => {
    expect(salesforceSettingsSchema.parse({ login_url: 'https://acme.my.salesforce.com/' })).toEqual({
      login_url: 'https://acme.my.salesforce.com', api_version: '62.0', objects: ['Contact', 'Lead'], page_size: 2000, api_usage_max_share: 0.5,
      realtime: false,
    });
    expect(salesforcePlugin.urlsOf(salesforceSettingsSchema.parse({ login_url: 'https://acme.my.salesforce.com' }))).toEqual(['https://acme.my.salesforce.com']);
  });

  it.each([
    [{ login_url: 'not a url' }],
    [{ login_url: 'ftp://acme.example' }],
    [{ login_url: 'https://acme.my.salesforce.com', objects: [] }],
    [{ login_url: 'https://acme.my.salesforce.com', objects: ['Account'] }],
    [{ login_url: 'https://acme.my.salesforce.com', page_size: 100 }],
    [{ login_url: 'https://acme.my.salesforce.com', api_usage_max_share: 1.5 }],
  ])('When the settings are %j, then they are refused', (settings) => {
    expect(salesforceSettingsSchema.safeParse(settings).success).toBe(false);
  });

  it('When credentials mix the two flows or the key is not a PEM key, then they are refused', () => {
    expect(salesforceCredentialsSchema.safeParse({ client_id: 'x', client_secret: 'y' }).success).toBe(true);
    expect(salesforceCredentialsSchema.safeParse({ client_id: 'x', client_secret: 'y', username: 'u' }).success).toBe(false);
    expect(salesforceCredentialsSchema.safeParse({ client_id: 'x', username: 'u', private_key: 'nope' }).success).toBe(false);
  });
});

describe('the Salesforce connector: the org\'s custom fields', () => {
  it('When metadata/ is read, then every file is what the fields table renders (npm run -s salesforce:metadata)', () => {
    const root = new URL('../../connectors/salesforce/metadata/', import.meta.url);
    for (const [file, text] of metadataFiles()) expect(fs.readFileSync(new URL(file, root), 'utf8'), file).toBe(text);
    const onDisk = fs.readdirSync(new URL('force-app/main/default/objects/Lead/fields/', root));
    expect(onDisk.length).toBe(Object.keys(FIELD_DEFS).length);
  });

  it('When the status fields are rendered, then they are restricted picklists of the service\'s vocabularies', () => {
    const xml = fieldXml('CV_Address_Status__c');
    expect(xml).toContain('<type>Picklist</type>');
    expect(xml).toContain('<restricted>true</restricted>');
    expect([...xml.matchAll(/<fullName>(\w+)<\/fullName>/g)].map((m) => m[1]).slice(1)).toEqual([...ADDRESS_STATUSES]);
    expect(CUSTOM_FIELDS).toMatchObject({ CV_Address_Standardized__c: 255, CV_Phone_Carrier__c: 100, CV_Address_Status__c: null });
  });
});
