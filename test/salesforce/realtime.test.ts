/**
 * Change Data Capture through the plugin (connectors/salesforce/realtime.ts): the real jsforce streaming client (CometD over
 * faye, through the outbound guard) against the local org's CometD endpoint (fake-org-cometd.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSalesforcePlugin, salesforceSettingsSchema, salesforceWriteBackSchema } from '../../connectors/salesforce/index.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import type { ChangeStream, ConnectorSession, PlatformRecord, StreamPosition } from '../../src/sync/plugin.js';
import { startFakeOrg, USERS, type FakeOrg } from './fake-org.js';

let org: FakeOrg;
const streams: ChangeStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) await s.close();
  await org?.close();
});

const plugin = createSalesforcePlugin({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 10 }, sleep: async () => undefined });

function open(o: FakeOrg): Promise<ConnectorSession> {
  return plugin.open({
    settings: salesforceSettingsSchema.parse({ login_url: o.url, realtime: true }),
    credentials: { client_id: o.state.clientId, client_secret: o.state.clientSecret },
    writeBack: salesforceWriteBackSchema.parse({}),
    log: { info() {}, warn() {} },
    fetch: createGuardedHttp({ privateOrigins: [o.url] }).fetch,
  });
}

/** Listens, and gathers what the stream hands over. */
async function listen(session: ConnectorSession, from: StreamPosition = {}) {
  const seen: { records: PlatformRecord[]; position: StreamPosition }[] = [];
  const drops: string[] = [];
  const stream = await session.listen!(from, {
    onRecords: async (records, position) => { seen.push({ records, position }); },
    onDrop: (reason) => drops.push(reason),
  });
  streams.push(stream);
  return { seen, drops, stream };
}

/** A Lead created through the REST API, as a person in the org would. */
async function createLead(o: FakeOrg, fields: Record<string, string>) {
  const res = await fetch(`${o.url}/services/data/v62.0/sobjects/Lead`, {
    method: 'POST', headers: { authorization: `Bearer ${o.state.sessionOf(USERS.admin)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ LastName: 'Doe', Company: 'Acme', ...fields }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function until(what: () => boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Salesforce Change Data Capture', () => {
  it('When a person creates a Lead, then its whole record arrives with the replay id to keep', async () => {
    org = await startFakeOrg();
    const { seen } = await listen(await open(org));

    const id = await createLead(org, { Email: 'ann@example.com', Street: '6007 Applegate Ln', City: 'Louisville', State: 'KY', PostalCode: '40219' });

    await until(() => seen.length > 0);
    expect(seen[0].records).toEqual([{ key: `Lead:${id}`, contact: { address: '6007 Applegate Ln, Louisville, KY, 40219', email: 'ann@example.com' } }]);
    expect(seen[0].position).toEqual({ '/data/ContactChangeEvent': -1, '/data/LeadChangeEvent': org.cometd.retained[0].replayId });
    expect(org.cometd.stats.subscribes).toEqual(expect.arrayContaining([
      { channel: '/data/ContactChangeEvent', replayFrom: -1 }, { channel: '/data/LeadChangeEvent', replayFrom: -1 },
    ]));
  });

  it('When our own write-back changes the record, then its event is skipped but the position moves past it', async () => {
    org = await startFakeOrg();
    const session = await open(org);
    const { seen } = await listen(session);
    const id = await createLead(org, { Email: 'ann@example.com' });
    await until(() => seen.length === 1);

    const [outcome] = await session.writeBack([{ key: `Lead:${id}`, validatedAt: '2026-11-27T07:00:00.000Z', email: {
      status: 'valid', risk: 'low', smtp: 'skipped', reason: 'accepted', normalized: 'ann@example.com', suggestion: null, disposable: false, role: false, free: false,
    } }]);
    expect(outcome.ok).toBe(true);
    await until(() => seen.length === 2);

    const header = org.cometd.retained[1].payload.ChangeEventHeader as Record<string, unknown>;
    expect(header).toMatchObject({ commitUser: USERS.integration, changeType: 'UPDATE', changeOrigin: expect.stringContaining('client=contact-validator') });
    expect(seen[1].records).toEqual([]);
    expect(seen[1].position['/data/LeadChangeEvent']).toBe(org.cometd.retained[1].replayId);
  });

  it('When a person edits a record as the integration user would not, then it comes; with the same user but no client tag too', async () => {
    org = await startFakeOrg();
    const { seen } = await listen(await open(org));
    const id = await createLead(org, { Email: 'a@example.com' });
    await until(() => seen.length === 1);

    // The integration user in the org's own pages (no Sforce-Call-Options): a person's edit, not our write-back.
    await fetch(`${org.url}/services/data/v62.0/sobjects/Lead/${id}`, {
      method: 'PATCH', headers: { authorization: `Bearer ${org.state.sessionOf(USERS.integration)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ Email: 'b@example.com' }),
    });

    await until(() => seen.length === 2);
    expect(seen[1].records).toEqual([{ key: `Lead:${id}`, contact: { email: 'b@example.com' } }]);
  });

  it('When the stream drops, then the core is told; subscribed again from the kept position, the events missed meanwhile come', async () => {
    org = await startFakeOrg();
    const first = await listen(await open(org));
    await createLead(org, { Email: 'one@example.com' });
    await until(() => first.seen.length === 1);
    const kept = first.seen[0].position;

    org.state.streamDown = true;
    await until(() => first.drops.length > 0);
    const missed = await createLead(org, { Email: 'two@example.com' });
    org.state.streamDown = false;
    const second = await listen(await open(org), kept);

    await until(() => second.seen.length > 0);
    expect(first.drops[0]).toMatch(/dropped/);
    expect(second.seen[0].records.map((r) => r.key)).toEqual([`Lead:${missed}`]);
    expect(org.cometd.stats.subscribes.slice(2)).toContainEqual({ channel: '/data/LeadChangeEvent', replayFrom: kept['/data/LeadChangeEvent'] });
  });

  it('When the session expires, then the stream ends saying the session was refused', async () => {
    org = await startFakeOrg({ connectTimeoutS: 1 });
    const { drops } = await listen(await open(org));

    org.state.expireSessions();

    await until(() => drops.length > 0, 10_000);
    expect(drops[0]).toMatch(/refused the session/);
  });
});
