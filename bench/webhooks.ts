/**
 * Outgoing webhooks: how fast emitted events reach a receiver on 127.0.0.1, and how fast a backlog of due retries
 * drains, through the real service (signing, the outbound guard, the delivery log) on SQLite and, when
 * TEST_DATABASE_URL_POSTGRES names a server, PostgreSQL:
 *
 *     npm run bench:webhooks [-- --events 500]
 *
 * "burst": events emitted one after another as fast as the log takes them, each sent at once; latency is from emit
 * to the receiver's having the body (a queue builds when emitting outruns sending).
 * "backlog": the receiver was down (503) for every first attempt; then every retry is made due at once (as after an
 * outage) and the receiver answers 200: deliveries per second until the last one is in.
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startQuietService } from '../test/support/quiet-service.js';
import { startWebhookReceiver } from '../test/support/webhook-receiver.js';

const { values } = parseArgs({ options: { events: { type: 'string', default: '500' } } });
const EVENTS = Number(values.events);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = process.env.TEST_DATABASE_URL_POSTGRES;
  if (!admin) return null;
  const name = `cv_bench_${crypto.randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => { const c = new pg.Client({ connectionString: admin }); await c.connect(); try { await c.query(sql); } finally { await c.end(); } };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function measure(database: string | undefined) {
  const receiver = await startWebhookReceiver();
  const service = await startQuietService({
    database, accounts: [{ name: 'bench', credits: 0 }],
    env: { CONNECTOR_SECRET_KEY: 'b2'.repeat(32), WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_RETRY_BASE_MS: '600000', WEBHOOKS_RETRY_MAX_MS: '600000', WEBHOOKS_TICK_MS: '100' },
  });
  try {
    const [{ accountId }] = service.funded;
    const { webhooks } = service.outgoing;
    await webhooks.createEndpoint(accountId, { url: receiver.url, events: ['batch.completed'] });

    // live
    const sentAt = new Map<string, number>();
    const live0 = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const event = await webhooks.emit(accountId, 'batch.completed', { batch_id: `live_${i}` });
      sentAt.set(event!.id, performance.now());
    }
    await receiver.waitFor(EVENTS, 120_000);
    const liveSeconds = (performance.now() - live0) / 1000;
    const latencies = receiver.received.map((r) => r.at - (sentAt.get(r.body.id)! - performance.now() + Date.now()));

    // backlog
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 503 });
    for (let i = 0; i < EVENTS; i++) await webhooks.emit(accountId, 'batch.completed', { batch_id: `backlog_${i}` });
    await receiver.waitFor(EVENTS, 120_000);
    await new Promise((r) => setTimeout(r, 300)); // the last attempts logged
    receiver.respond = () => ({ status: 200 });
    const drain0 = Date.now();
    await service.db.run(`UPDATE webhook_endpoint_deliveries SET next_attempt_at = 0 WHERE status = 'pending'`);
    webhooks.kick();
    await receiver.waitFor(2 * EVENTS, 180_000);
    const drainSeconds = (receiver.received.at(-1)!.at - drain0) / 1000;
    return {
      database: service.db.dialect, events: EVENTS,
      'burst per s': Math.round(EVENTS / liveSeconds), 'p50 ms': Math.round(quantile(latencies, 0.5)), 'p99 ms': Math.round(quantile(latencies, 0.99)),
      'backlog drained per s': Math.round(EVENTS / Math.max(drainSeconds, 0.001)),
    };
  } finally {
    await service.close();
    await receiver.close();
  }
}

const rows = [await measure(undefined)];
const postgres = await postgresDatabase();
if (postgres) {
  try {
    rows.push(await measure(postgres.url));
  } finally {
    await postgres.drop();
  }
}
console.table(rows);
