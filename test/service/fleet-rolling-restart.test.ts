/**
 * A rolling restart under load (docs/operations.md, "Restarts and deploys"): autocannon sends /v1/validate through
 * nginx to two instances for 60 s while each instance in turn gets SIGTERM and is started again. No request may fail,
 * and the ledger must hold exactly what the 200 answers say they charged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autocannon } from '../../bench/autocannon.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';
import {
  freePort, NGINX, newAccount, sleep, startInstance, startNginx, type Instance, type Nginx,
} from '../support/fleet.js';
import { binary, POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const LOAD_SECONDS = 60;
const RATE = 400;
const CREDITS = 10_000_000;

const SUITE = 'a rolling restart of two instances behind nginx';

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER, binary(NGINX, 'apt-get install nginx-light; .ci/run installs it')))(SUITE, () => {
  const instances: Instance[] = [];
  let nginx: Nginx | undefined;
  let databaseUrl: string;
  let batchDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    databaseUrl = await postgres!.create();
    batchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-rolling-'));
    env = { DATABASE_URL: databaseUrl, BATCH_DIR: batchDir, SHUTDOWN_GRACE_MS: '10000' };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) instances.push(await startInstance(env, port));
    nginx = await startNginx(ports.map((p) => `127.0.0.1:${p}`));
  }, 120_000);
  afterAll(async () => {
    await nginx?.close();
    for (const i of instances) await i.kill();
    await postgres!.dropAll();
    if (batchDir) fs.rmSync(batchDir, { recursive: true, force: true });
  });

  /** SIGTERM, wait for the exit, start it again on its port; how long it took to stop, and to serve again. */
  async function restart(index: number): Promise<{ stopMs: number; startMs: number }> {
    const old = instances[index];
    const t0 = performance.now();
    await old.stop();
    const t1 = performance.now();
    expect(old.child.exitCode, `instance ${index} exit code\n${old.output()}`).toBe(0);
    instances[index] = await startInstance(env, old.port);
    return { stopMs: Math.round(t1 - t0), startMs: Math.round(performance.now() - t1) };
  }

  it('When each instance in turn gets SIGTERM and is started again under 60 s of load, then no request fails and the ledger sums exactly', async () => {
    const { accountId, apiKey } = await newAccount(databaseUrl, CREDITS);
    let answered200 = 0;
    let charged = 0;
    const other: string[] = [];
    const load = autocannon({
      url: nginx!.url,
      connections: 16,
      // A number of requests, not a duration: autocannon waits for every answer (at the end of a duration it drops
      // those in flight, which the service has charged). A fixed pace leaves the two cores room to start an instance
      // again while the load goes on.
      amount: LOAD_SECONDS * RATE,
      overallRate: RATE,
      timeout: 10,
      requests: [{
        method: 'POST',
        path: '/v1/validate',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502 713 4000' }),
        onResponse: (status: number, body: string) => {
          if (status === 200) {
            answered200++;
            charged += (JSON.parse(body) as { credits: { charged: number } }).credits.charged;
          } else if (other.length < 20) other.push(`${status} ${body.slice(0, 300)}`);
        },
      } as never],
    });

    await sleep(10_000);
    const awayOne = await restart(0);
    await sleep(8_000);
    const awayTwo = await restart(1);
    const result = await load;

    const db = await Database.open(databaseUrl, { migrate: false });
    const [ledger] = await db.all<{ spent: number | string }>(
      `SELECT -COALESCE(SUM(credits), 0) AS spent FROM ledger_entries WHERE account_id = $1 AND kind IN ('debit', 'refund')`,
      [accountId],
    );
    const [grants] = await db.all<{ granted: number | string; remaining: number | string }>(
      `SELECT SUM(credits) AS granted, SUM(remaining) AS remaining FROM credit_grants WHERE account_id = $1`, [accountId],
    );
    await db.close();
    const summary = {
      requests: result.requests.total, sent: result.requests.sent, answered200, charged, spent: Number(ledger.spent), ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts,
      restarts: [awayOne, awayTwo], p99: result.latency.p99,
      retriedByNginx: nginx!.errors().split('\n').filter((l) => l.includes('upstream')).length,
    };
    console.log('rolling restart:', JSON.stringify(summary));
    console.log([...new Set(nginx!.errors().split('\n').map((l) => l.replace(/^.*?\*\d+ /, '').replace(/client: .*$/, '')))].join('\n'));

    expect({ non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, other }, nginx!.errors().slice(-3_000))
      .toEqual({ non2xx: 0, errors: 0, timeouts: 0, other: [] });
    // autocannon stops one request short on some connections when it paces them; none of those was sent.
    expect(result['2xx']).toBeGreaterThanOrEqual(LOAD_SECONDS * RATE - 16);
    expect(answered200).toBe(result['2xx']);
    expect(Number(ledger.spent)).toBe(charged);
    expect(Number(grants.granted)).toBe(CREDITS);
    expect(Number(grants.remaining) + charged).toBe(CREDITS);
  }, 150_000);
});
