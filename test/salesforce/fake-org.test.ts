import crypto from 'node:crypto';
import jsforce from 'jsforce';
import type { Connection } from 'jsforce';
import { afterEach, describe, expect, it } from 'vitest';
import { salesforceId, startFakeOrg, type FakeOrg } from './fake-org.js';

let org: FakeOrg;
afterEach(async () => { await org?.close(); });

async function connect(o: FakeOrg, extra: Partial<ConstructorParameters<typeof jsforce.Connection>[0]> = {}): Promise<Connection> {
  const conn = new jsforce.Connection({
    loginUrl: o.url, version: '62.0',
    oauth2: { loginUrl: o.url, clientId: o.state.clientId, clientSecret: o.state.clientSecret },
    ...extra,
  });
  await conn.authorize({ grant_type: 'client_credentials' });
  return conn;
}

function errorOf(p: PromiseLike<unknown>) {
  return Promise.resolve(p).then(() => { throw new Error('expected a failure'); }, (e: Error & { errorCode?: string }) => e);
}

describe('the fake Salesforce org, driven by jsforce', () => {
  it('When jsforce describes Contact, then the fields come as DescribeSObjectResult gives them, as the user sees them', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Contact.CV_Email_Risk__c');
    org.state.readOnlyFields.add('Contact.CV_Phone_Type__c');
    const conn = await connect(org);

    const described = await conn.sobject('Contact').describe();
    const byName = new Map(described.fields.map((f) => [f.name, f]));
    const missing = await errorOf(conn.sobject('Account').describe());
    const write = await conn.request<{ success: boolean; errors: { statusCode: string }[] }[]>({
      method: 'PATCH', url: '/composite/sobjects', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ allOrNone: false, records: [{ attributes: { type: 'Contact' }, id: org.state.seed('Contact', 1)[0].Id, CV_Phone_Type__c: 'mobile' }] }),
    });

    expect(described).toMatchObject({ name: 'Contact', keyPrefix: '003', updateable: true, queryable: true });
    expect(byName.get('Id')).toMatchObject({ type: 'id', updateable: false });
    expect(byName.get('CV_Address_Status__c')).toMatchObject({ type: 'picklist', restrictedPicklist: true, updateable: true, custom: true });
    expect(byName.get('CV_Address_Standardized__c')).toMatchObject({ type: 'string', length: 255, updateable: true, custom: true });
    expect(byName.has('CV_Email_Risk__c')).toBe(false);
    expect(byName.get('CV_Phone_Type__c')).toMatchObject({ updateable: false });
    expect(missing.errorCode).toBe('NOT_FOUND');
    expect(write[0]).toMatchObject({ success: false, errors: [{ statusCode: 'INVALID_FIELD_FOR_INSERT_UPDATE' }] });
  });

  it('When jsforce logs in with client credentials, then it gets a session on the org\'s own URL', async () => {
    org = await startFakeOrg();
    const conn = await connect(org);
    expect(conn.instanceUrl).toBe(org.url);
    expect(conn.accessToken).toMatch(/^00D/);
    expect(org.state.tokenRequests).toBe(1);
  });

  it('When the client id and secret come as HTTP Basic, then the token is given too', async () => {
    org = await startFakeOrg();
    const res = await fetch(`${org.url}/services/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('fake-client-id:fake-client-secret').toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', instance_url: org.url, scope: 'api' });
  });

  it('When the secret is wrong, then jsforce gets invalid_client', async () => {
    org = await startFakeOrg({ clientSecret: 'right' });
    const conn = new jsforce.Connection({ oauth2: { loginUrl: org.url, clientId: 'fake-client-id', clientSecret: 'wrong' } });
    const err = await errorOf(conn.authorize({ grant_type: 'client_credentials' }));
    expect(err.name).toBe('invalid_client');
    expect(err.message).toBe('invalid client credentials');
  });

  it('When a JWT assertion is signed with the app\'s key, then it is accepted, and a wrong key or audience is refused', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    org = await startFakeOrg({ jwtPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    const sign = (key: crypto.KeyObject, aud: string, exp = Math.floor(Date.now() / 1000) + 120) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const data = `${part({ alg: 'RS256' })}.${part({ iss: 'fake-client-id', sub: 'integration@example.com', aud, exp })}`;
      return `${data}.${crypto.sign('RSA-SHA256', Buffer.from(data), key).toString('base64url')}`;
    };
    const grant = (assertion: string) => new jsforce.Connection({ oauth2: { loginUrl: org.url } })
      .authorize({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    await expect(grant(sign(privateKey, org.url))).resolves.toMatchObject({ organizationId: '00D5g000000FAKEEAA' });
    expect((await errorOf(grant(sign(other, org.url)))).name).toBe('invalid_client');
    expect((await errorOf(grant(sign(privateKey, 'https://login.salesforce.com')))).name).toBe('invalid_grant');
    expect((await errorOf(grant(sign(privateKey, org.url, 1000)))).name).toBe('invalid_grant');
  });

  it('When a query has more records than a page, then jsforce follows nextRecordsUrl to the end', async () => {
    org = await startFakeOrg({ pageSize: 3 });
    org.state.seed('Contact', 7, (i) => ({ Email: `p${i}@example.com` }));
    const conn = await connect(org);
    const result = await conn.query('SELECT Id, Email, SystemModstamp FROM Contact ORDER BY SystemModstamp ASC, Id ASC')
      .run({ autoFetch: true, maxFetch: 100 });
    expect(result.records.map((r) => r.Email)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `p${i}@example.com`));
    expect(result.records[0]).toMatchObject({ attributes: { type: 'Contact' }, SystemModstamp: '2026-11-24T10:00:01.000+0000' });
    expect(result.records[0].Id).toMatch(/^003\w{15}$/);
    expect(org.state.calls).toMatchObject({ query: 1, queryMore: 2 });
  });

  it('When the first page is read alone, then queryMore on its nextRecordsUrl gives the next one', async () => {
    org = await startFakeOrg({ pageSize: 2 });
    org.state.seed('Lead', 3);
    const conn = await connect(org);
    const first = await conn.query<{ Id: string }>('SELECT Id FROM Lead ORDER BY Id');
    expect(first).toMatchObject({ totalSize: 3, done: false });
    expect(first.nextRecordsUrl).toMatch(/\/services\/data\/v62\.0\/query\/01g\w+-2$/);
    const second = await conn.queryMore(first.nextRecordsUrl!);
    expect(second).toMatchObject({ done: true });
    expect(second.records.map((r) => r.Id)).toEqual([salesforceId('00Q', 3)]);
  });

  it('When Sforce-Query-Options asks batchSize=200, then pages hold 200 records', async () => {
    org = await startFakeOrg();
    org.state.seed('Contact', 450);
    const conn = await connect(org);
    const first = await conn.request<{ records: unknown[]; nextRecordsUrl: string }>({
      method: 'GET', url: `/query?q=${encodeURIComponent('SELECT Id FROM Contact')}`, headers: { 'Sforce-Query-Options': 'batchSize=200' },
    });
    expect(first.records).toHaveLength(200);
    expect(first.nextRecordsUrl).toMatch(/-200$/);
  });

  it('When a WHERE clause compares SystemModstamp and Id, then only the later records come back', async () => {
    org = await startFakeOrg();
    const rows = org.state.seed('Contact', 5);
    const conn = await connect(org);
    const at = jsforce.SfDate.toDateTimeLiteral('2026-11-24T10:00:03Z');
    const soql = `SELECT Id FROM Contact WHERE SystemModstamp > ${at} OR (SystemModstamp = ${at} AND Id > '${rows[1].Id}') ORDER BY SystemModstamp ASC, Id ASC`;
    const result = await conn.query<{ Id: string }>(soql);
    expect(result.records.map((r) => r.Id)).toEqual(rows.slice(2).map((r) => r.Id));
  });

  it.each([
    ['SELECT Id, Nope__c FROM Contact', 'INVALID_FIELD'],
    ['SELECT Id FROM Opportunity', 'INVALID_TYPE'],
    [`SELECT Id FROM Contact WHERE SystemModstamp >= '2026-11-24T10:00:00Z'`, 'INVALID_FIELD'],
    [`SELECT Id FROM Contact WHERE SystemModstamp >= ${new Date('2026-11-24T10:00:00Z')}`, 'MALFORMED_QUERY'],
  ])('When the SOQL is %s, then the answer is 400 %s', async (soql, errorCode) => {
    org = await startFakeOrg();
    const conn = await connect(org);
    const err = await errorOf(conn.query(soql));
    expect(err.errorCode).toBe(errorCode);
  });

  it('When records are updated through sObject Collections, then fields change, stamps move and a rejected save is reported', async () => {
    org = await startFakeOrg();
    const [a, b] = org.state.seed('Contact', 2);
    org.state.rejectOnSave.add(b.Id as string);
    const conn = await connect(org);
    const before = org.state.now().getTime();
    const results = await conn.sobject('Contact').update([
      { Id: a.Id as string, CV_Email_Status__c: 'valid', CV_Validated_At__c: '2026-11-25T08:00:00Z' },
      { Id: b.Id as string, CV_Email_Status__c: 'invalid' },
    ], { allOrNone: false });
    expect(results).toEqual([
      { id: a.Id, success: true, errors: [] },
      { id: b.Id, success: false, errors: [{ statusCode: 'FIELD_CUSTOM_VALIDATION_EXCEPTION', message: 'Mailing address must be complete', fields: [] }] },
    ]);
    expect(org.state.get(a.Id as string)).toMatchObject({ CV_Email_Status__c: 'valid', CV_Validated_At__c: '2026-11-25T08:00:00.000+0000' });
    expect(Date.parse(String(org.state.get(a.Id as string)!.SystemModstamp).replace('+0000', 'Z'))).toBeGreaterThan(before);
    expect(org.state.get(b.Id as string)).toMatchObject({ CV_Email_Status__c: null });
    expect(org.state.calls['collections.update']).toBe(1);
  });

  it('When more than 200 records are sent in one call, then the answer is 400 EXCEEDED_ID_LIMIT', async () => {
    org = await startFakeOrg();
    const rows = org.state.seed('Contact', 201);
    const conn = await connect(org);
    const err = await errorOf(conn.requestPatch('/composite/sobjects', {
      allOrNone: false, records: rows.map((r) => ({ attributes: { type: 'Contact' }, id: r.Id, CV_Email_Status__c: 'valid' })),
    }));
    expect(err.errorCode).toBe('EXCEEDED_ID_LIMIT');
  });

  it('When sessions expire, then the API answers 401 INVALID_SESSION_ID and jsforce\'s own refresh fails with no refresh token', async () => {
    org = await startFakeOrg();
    const conn = await connect(org);
    org.state.expireSessions();
    const raw = await fetch(`${org.url}/services/data/v62.0/query?q=SELECT+Id+FROM+Contact`, { headers: { authorization: `Bearer ${conn.accessToken}` } });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    // PLATFORM-NOTES: a client-credentials session has no refresh token.
    expect((await errorOf(conn.query('SELECT Id FROM Contact'))).message).toMatch(/No refresh token found/);
  });

  it('When sessions are set to expire at the next write, then reads go on until the sObject Collections update answers 401 INVALID_SESSION_ID', async () => {
    org = await startFakeOrg();
    const [row] = org.state.seed('Contact', 1);
    const conn = await connect(org);
    org.state.expireSessionsAtNextWrite();
    await conn.query('SELECT Id FROM Contact');
    const expired = await fetch(`${org.url}/services/data/v62.0/composite/sobjects`, {
      method: 'PATCH', headers: { authorization: `Bearer ${conn.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allOrNone: false, records: [{ attributes: { type: 'Contact' }, id: row.Id, CV_Email_Status__c: 'valid' }] }),
    });
    const fresh = await connect(org);
    const again = await fetch(`${org.url}/services/data/v62.0/query?q=SELECT+Id+FROM+Contact`, { headers: { authorization: `Bearer ${fresh.accessToken}` } });

    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    expect(again.status).toBe(200);
    expect(org.state.get(row.Id as string)).toMatchObject({ CV_Email_Status__c: null });
  });

  it('When faults are injected, then they come in Salesforce\'s shape with Sforce-Limit-Info, and the limit stops the org', async () => {
    org = await startFakeOrg({ apiLimit: 4 });
    const conn = await connect(org);
    org.state.failNext(1, 403);
    const limited = await errorOf(conn.query('SELECT Id FROM Contact'));
    expect(limited.errorCode).toBe('REQUEST_LIMIT_EXCEEDED');
    expect(conn.limitInfo.apiUsage).toEqual({ used: 1, limit: 4 });
    org.state.failNext(1, 503, [{ message: 'down', errorCode: 'SERVER_UNAVAILABLE' }], { method: 'PATCH' });
    const down = await errorOf(conn.requestPatch('/composite/sobjects', { allOrNone: false, records: [] }));
    expect(down.errorCode).toBe('SERVER_UNAVAILABLE'); // jsforce does not retry a PATCH
    await conn.query('SELECT Id FROM Contact');
    await conn.query('SELECT Id FROM Contact');
    const exhausted = await errorOf(conn.query('SELECT Id FROM Contact'));
    expect(exhausted.errorCode).toBe('REQUEST_LIMIT_EXCEEDED');
    expect(conn.limitInfo.apiUsage).toEqual({ used: 4, limit: 4 });
  });

  it('When a latency is set, then every answer waits for it', async () => {
    org = await startFakeOrg({ latencyMs: 50 });
    const conn = await connect(org);
    const started = performance.now();
    await conn.query('SELECT Id FROM Contact');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});
