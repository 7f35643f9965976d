/**
 * `kill -9` of one of two instances under load, with the ledger's group commit (src/billing/README.md): the ledger is
 * checked request id by request id against what the clients were answered. Every 200 is charged exactly what it
 * said (no charge lost for an answer sent); no request answered otherwise is charged; a charge without an answer can
 * only belong to a request the kill cut off (its client saw the connection die), and there are at most as many as
 * were in flight there; the other instance serves on. Its own PostgreSQL cluster, deleted afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import {
  newAccount, POSTGRES_BINARIES, sleep, startInstance, startPrivatePostgres, type Instance, type PrivatePostgres,
} from '../support/fleet.js';
import { prerequisites } from '../support/prerequisites.js';

const CLIENTS_PER_INSTANCE = 8;
const CREDITS = 1_000_000;

interface Answer { instance: number; status: number; requestId: string | null; charged: number; endedAt: number }

const SUITE = 'kill -9 of an instance under load';

describe.runIf(prerequisites(SUITE, POSTGRES_BINARIES))(SUITE, () => {
  let pg: PrivatePostgres | undefined;
  const instances: Instance[] = [];
  let batchDir: string;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    batchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-kill-'));
    const env = { DATABASE_URL: pg.url, BATCH_DIR: batchDir, RATE_LIMIT_PER_MINUTE: '0' };
    instances.push(await startInstance(env), await startInstance(env));
  }, 120_000);
  afterAll(async () => {
    for (const i of instances) await i.kill();
    await pg?.close();
    if (batchDir) fs.rmSync(batchDir, { recursive: true, force: true });
  });

  it('When one of two instances is killed with SIGKILL under load, then every 200 is charged exactly, nothing answered otherwise is charged, and a charge without an answer belongs to a request the kill cut off', async () => {
    // Arrange: clients on both instances, each request a new address so that the engines do some work.
    const { accountId, apiKey } = await newAccount(pg!.url, CREDITS);
    const answers: Answer[] = [];
    const cutOff: number[] = [0, 0];
    let running = true;
    let sent = 0;
    const client = async (instance: number) => {
      while (running) {
        const n = sent++;
        try {
          const res = await fetch(`${instances[instance].url}/v1/validate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ address: `${100 + (n % 9000)} Main St, Louisville, KY 40219`, phone: '+1 502 713 4000' }),
            signal: AbortSignal.timeout(10_000),
          });
          const body = (await res.json()) as { credits?: { charged: number } };
          answers.push({
            instance, status: res.status, requestId: res.headers.get('x-request-id'),
            charged: res.status === 200 ? body.credits!.charged : 0, endedAt: performance.now(),
          });
        } catch {
          cutOff[instance]++;
          if (instance === 0) return; // the killed instance: this client is done
        }
      }
    };
    const load = Promise.all([0, 1].flatMap((instance) => Array.from({ length: CLIENTS_PER_INSTANCE }, () => client(instance))));

    // Act: SIGKILL instance 0 in the middle of the load; instance 1 goes on.
    await sleep(3_000);
    await instances[0].kill();
    const killedAt = performance.now();
    await sleep(2_000);
    running = false;
    await load;

    // Assert: the ledger, request id by request id.
    const db = await Database.open(pg!.url, { migrate: false });
    let net: Map<string, number>;
    let balance: number;
    try {
      const rows = await db.all<{ request_id: string; net: number | string }>(
        `SELECT request_id, -SUM(credits) AS net FROM ledger_entries
         WHERE account_id = $1 AND kind IN ('debit', 'refund') GROUP BY request_id`, [accountId],
      );
      net = new Map(rows.map((r) => [r.request_id, Number(r.net)]));
      const [row] = await db.all<{ remaining: number | string }>(`SELECT SUM(remaining) AS remaining FROM credit_grants WHERE account_id = $1`, [accountId]);
      balance = Number(row.remaining);
    } finally {
      await db.close();
    }
    const served = answers.filter((a) => a.status === 200);
    const wrong = served.filter((a) => net.get(a.requestId!) !== a.charged);
    const chargedOtherwise = answers.filter((a) => a.status !== 200 && (net.get(a.requestId!) ?? 0) !== 0);
    const answeredIds = new Set(answers.map((a) => a.requestId));
    const chargedUnanswered = [...net].filter(([id, credits]) => credits !== 0 && !answeredIds.has(id));
    const spent = [...net.values()].reduce((sum, c) => sum + c, 0);
    console.log('kill -9 under load:', JSON.stringify({
      answered: answers.length, served: served.length, cutOff, chargedUnanswered: chargedUnanswered.length,
      servedAfterKill: served.filter((a) => a.instance === 1 && a.endedAt > killedAt).length,
    }));

    expect(served.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
    expect(chargedOtherwise).toEqual([]);
    expect(chargedUnanswered.length).toBeLessThanOrEqual(cutOff[0]);
    expect(cutOff[1]).toBe(0);
    expect(served.some((a) => a.instance === 1 && a.endedAt > killedAt + 500)).toBe(true);
    expect(balance + spent).toBe(CREDITS);
  }, 120_000);
});
