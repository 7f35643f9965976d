/**
 * One first run of a Salesforce sync through the real service (in this process, on `database` or a throw-away SQLite
 * file) and the real jsforce client, against the tests' local org (test/salesforce/fake-org.ts) answering every API
 * call after `latencyMs`: `records` Contacts read, validated and written back (page size 2,000, 200 records per
 * sObject Collections update, network checks off). For bench:connector and bench:pg.
 */
import { startFakeOrg } from '../test/salesforce/fake-org.js';
import { startQuietService } from '../test/support/quiet-service.js';

export async function connectorRun({ records, latencyMs, database }: { records: number; latencyMs: number; database?: string }) {
  const org = await startFakeOrg({ pageSize: 2000, apiLimit: 1_000_000 });
  const service = await startQuietService({
    database,
    accounts: [{ name: 'bench', credits: records * 10 }],
    env: { CONNECTOR_SECRET_KEY: 'b2'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' },
  });
  try {
    const [{ apiKey: api_key }] = service.funded;
    org.state.seed('Contact', records, (i) => ({
      MailingStreet: `${100 + (i % 9000)} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219',
      MailingCountry: 'US', Email: `c${i}@example.com`, Phone: `(502) 713-${String(i % 10000).padStart(4, '0')}`,
    }));
    const headers = { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' };
    const created = await (await fetch(`${service.url}/v1/connectors`, {
      method: 'POST', headers, body: JSON.stringify({
        type: 'salesforce', name: 'bench', schedule: '0 3 * * *',
        settings: { login_url: org.url, objects: ['Contact'], page_size: 2000 },
        credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
      }),
    })).json() as { connector_id: string };
    org.state.latencyMs = latencyMs;
    const callsBefore = org.state.apiUsage;
    const started = performance.now();
    const { run_id } = await (await fetch(`${service.url}/v1/connectors/${created.connector_id}/runs`, { method: 'POST', headers })).json() as { run_id: string };
    let run: Record<string, unknown> | undefined;
    while (!run || run.status === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      const { runs } = await (await fetch(`${service.url}/v1/connectors/${created.connector_id}/runs`, { headers })).json() as { runs: Record<string, unknown>[] };
      run = runs.find((r) => r.run_id === run_id);
    }
    const seconds = (performance.now() - started) / 1000;
    const calls = org.state.apiUsage - callsBefore;
    if (run?.status !== 'completed' || run.records_written !== records) throw new Error(`run did not complete: ${JSON.stringify(run)}`);
    return { run, seconds, calls, floor: (calls * latencyMs) / 1000 };
  } finally {
    await service.close();
    await org.close();
  }
}
