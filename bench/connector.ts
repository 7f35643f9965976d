/**
 * Records per second of a Salesforce sync, through the real service and the real jsforce client, against the local org
 * of the tests (test/salesforce/fake-org.ts) answering every API call after a simulated latency:
 *
 *     npm run bench:connector [-- --records 10000 --latency 50]
 *
 * Page size 2,000 (the query's batchSize), 200 records per sObject Collections update, network checks off. Each run
 * is a first sync of every record (read, validate, write back). The same run with no latency is the baseline: what
 * the service itself costs. The table gives the API calls, the time they alone must take one after another
 * (calls × latency), and the run's time: the run is bound by the API calls, not by us, when its time over that floor
 * is close to 1 (target: at most 1.25).
 */
import { parseArgs } from 'node:util';
import { startFakeOrg } from '../test/salesforce/fake-org.js';
import { startQuietService } from '../test/support/quiet-service.js';

const TARGET = 1.25;
const { values } = parseArgs({ options: { records: { type: 'string', default: '10000' }, latency: { type: 'string', default: '50' } } });
const RECORDS = Number(values.records);
const LATENCY = Number(values.latency);

async function oneRun(latencyMs: number) {
  const org = await startFakeOrg({ pageSize: 2000, apiLimit: 1_000_000 });
  const service = await startQuietService({
    accounts: [{ name: 'bench', credits: RECORDS * 10 }],
    env: { CONNECTOR_SECRET_KEY: 'b2'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' },
  });
  try {
    const [{ apiKey: api_key }] = service.funded;
    org.state.seed('Contact', RECORDS, (i) => ({
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
    return { run, seconds, calls, floor: (calls * latencyMs) / 1000 };
  } finally {
    await service.close();
    await org.close();
  }
}

const rows: string[] = [];
let ratio = 0;
for (const latency of [0, LATENCY]) {
  const { run, seconds, calls, floor } = await oneRun(latency);
  if (run?.status !== 'completed' || run.records_written !== RECORDS) throw new Error(`run did not complete: ${JSON.stringify(run)}`);
  const overFloor = floor > 0 ? seconds / floor : null;
  if (latency === LATENCY) ratio = overFloor ?? 0;
  rows.push(`| ${latency} ms | ${RECORDS} | ${Math.round(RECORDS / seconds)} | ${calls} | ${floor.toFixed(2)} | ${seconds.toFixed(2)} | ${overFloor === null ? '—' : overFloor.toFixed(2)} |`);
}
console.log(`\n### Salesforce sync, ${RECORDS} Contacts, first run (read, validate, write back)\n`);
console.log('| API latency | records | records/s | API calls | API floor s (calls × latency) | run s | run / floor |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
for (const r of rows) console.log(r);
console.log(`\nrun / floor at ${LATENCY} ms: ${ratio.toFixed(2)} (target <= ${TARGET}) -> ${ratio <= TARGET ? 'PASS' : 'FAIL'}`);
