/** The connector API as a tenant calls it in tests: requests with an API key, and a run started and waited for. */
import type { TestService } from './service.js';

export async function json(res: Response) {
  return (await res.json()) as Record<string, any>;
}

export function request(s: TestService, method: string, path: string, key: string, body?: unknown) {
  return fetch(s.url + path, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** Starts a run and waits for it to end; returns the run as GET …/runs shows it. */
export async function runNow(s: TestService, key: string, id: string, timeoutMs = 30_000) {
  const started = await request(s, 'POST', `/v1/connectors/${id}/runs`, key);
  if (started.status !== 202) throw new Error(`run not started: ${started.status} ${await started.text()}`);
  const { run_id: runId } = await json(started);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = (await json(await s.get(`/v1/connectors/${id}/runs`, key))).runs.find((r: { run_id: string }) => r.run_id === runId);
    if (run && run.status !== 'running') return run;
    if (Date.now() > until) throw new Error(`run ${runId} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Credits the ledger moved for a connector's records (debits less refunds), all its runs together. */
export async function spentByConnector(s: TestService, connectorId: string): Promise<number> {
  const [row] = await s.db.all<{ spent: number | string | null }>(
    `SELECT SUM(-credits) AS spent FROM ledger_entries WHERE kind IN ('debit', 'refund') AND request_id LIKE $1`,
    [`${connectorId}:%`],
  );
  return Number(row?.spent ?? 0);
}
