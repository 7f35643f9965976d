/**
 * PostgreSQL goes away under load (docs/operations.md, "When PostgreSQL goes away"): its own cluster, stopped with
 * `pg_ctl stop -m immediate` for 10 s while 8 clients keep sending /v1/validate. Every answer is a 200 or a 503
 * problem, no request is charged without a 200 (the ledger, request id by request id, once debits in doubt are
 * settled), and the service answers 200 again within 5 s of the database's return. Never the shared cluster of
 * TEST_DATABASE_URL_POSTGRES: this one is made for the test (initdb into a temporary folder) and deleted after it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import {
  newAccount, POSTGRES_BINARIES, sleep, startInstance, startPrivatePostgres, until, type Instance, type PrivatePostgres,
} from '../support/fleet.js';
import { prerequisites } from '../support/prerequisites.js';

const CLIENTS = 8;
const OUTAGE_MS = 10_000;
const RECOVERY_LIMIT_MS = 5_000;

interface Answer { startedAt: number; endedAt: number; status: number; problem: boolean; requestId: string | null; charged: number }

const SUITE = 'a PostgreSQL outage under load';

describe.runIf(prerequisites(SUITE, POSTGRES_BINARIES))(SUITE, () => {
  let pg: PrivatePostgres | undefined;
  let instance: Instance | undefined;
  let batchDir: string;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    batchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-outage-'));
    instance = await startInstance({ DATABASE_URL: pg.url, BATCH_DIR: batchDir });
  }, 120_000);
  afterAll(async () => {
    await instance?.kill();
    await pg?.close();
    if (batchDir) fs.rmSync(batchDir, { recursive: true, force: true });
  });

  it('When PostgreSQL stops for 10 s under load, then every answer is 200 or a 503 problem, none is charged without a 200, and it serves again within 5 s', async () => {
    const { accountId, apiKey } = await newAccount(pg!.url, 1_000_000);
    const answers: Answer[] = [];
    const failures: string[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        const startedAt = performance.now();
        try {
          const res = await fetch(`${instance!.url}/v1/validate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502 713 4000' }),
            signal: AbortSignal.timeout(10_000),
          });
          const body = (await res.json()) as { credits?: { charged: number } };
          answers.push({
            startedAt, endedAt: performance.now(), status: res.status,
            problem: res.headers.get('content-type')?.startsWith('application/problem+json') ?? false,
            requestId: res.headers.get('x-request-id'), charged: res.status === 200 ? body.credits!.charged : 0,
          });
          if (res.status !== 200) await sleep(5); // a client backs off a little on a 503; none waits for long
        } catch (err) {
          if (failures.length < 20) failures.push(String((err as Error).cause ?? err));
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, client));

    await sleep(3_000);
    const downAt = performance.now();
    await pg!.stop('immediate');
    await sleep(OUTAGE_MS);
    await pg!.start();
    const upAt = performance.now();
    const firstServed = await until('a 200 after the database returned', 15_000, async () =>
      answers.find((a) => a.endedAt > upAt && a.status === 200 && a.startedAt > upAt));
    await sleep(2_000);
    running = false;
    await load;

    // Debits in doubt (the COMMIT went out as the connection died) are refunded once the database answers again.
    const served = new Map(answers.filter((a) => a.status === 200).map((a) => [a.requestId, a.charged]));
    const db = await Database.open(pg!.url, { migrate: false });
    let unanswered: { request_id: string; net: number }[] = [];
    let wrong: { request_id: string; net: number; answered: number }[] = [];
    try {
      await until('the ledger to hold only answered charges', 30_000, async () => {
        const rows = (await db.all<{ request_id: string; net: number | string }>(
          `SELECT request_id, -SUM(credits) AS net FROM ledger_entries
           WHERE account_id = $1 AND kind IN ('debit', 'refund') GROUP BY request_id`, [accountId],
        )).map((r) => ({ request_id: r.request_id, net: Number(r.net) }));
        const net = new Map(rows.map((r) => [r.request_id, r.net]));
        unanswered = rows.filter((r) => r.net !== 0 && !served.has(r.request_id));
        wrong = [...served].filter(([id, charged]) => (net.get(id!) ?? 0) !== charged)
          .map(([id, charged]) => ({ request_id: id!, net: net.get(id!) ?? 0, answered: charged }));
        return unanswered.length === 0 && wrong.length === 0 ? true : undefined;
      }).catch(() => undefined);
    } finally {
      await db.close();
    }
    const during = answers.filter((a) => a.endedAt > downAt && a.startedAt < upAt);
    const byStatus: Record<string, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    console.log('database outage:', JSON.stringify({
      answers: answers.length, byStatus,
      duringOutage: during.length, recoveredMs: Math.round(firstServed.endedAt - upAt), failures: failures.length,
    }));

    expect(failures).toEqual([]);
    expect(answers.filter((a) => !(a.status === 200 || (a.status === 503 && a.problem))).map((a) => a.status)).toEqual([]);
    expect(during.some((a) => a.status === 503)).toBe(true);
    expect(firstServed.endedAt - upAt).toBeLessThan(RECOVERY_LIMIT_MS);
    expect(unanswered).toEqual([]);
    expect(wrong).toEqual([]);
    expect(instance!.child.exitCode).toBeNull();
  }, 120_000);
});
