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
import { connectorRun } from './connector-run.js';

const TARGET = 1.25;
const { values } = parseArgs({ options: { records: { type: 'string', default: '10000' }, latency: { type: 'string', default: '50' } } });
const RECORDS = Number(values.records);
const LATENCY = Number(values.latency);

const rows: string[] = [];
let ratio = 0;
for (const latency of [0, LATENCY]) {
  const { run, seconds, calls, floor } = await connectorRun({ records: RECORDS, latencyMs: latency });
  const overFloor = floor > 0 ? seconds / floor : null;
  if (latency === LATENCY) ratio = overFloor ?? 0;
  rows.push(`| ${latency} ms | ${RECORDS} | ${Math.round(RECORDS / seconds)} | ${calls} | ${floor.toFixed(2)} | ${seconds.toFixed(2)} | ${overFloor === null ? '—' : overFloor.toFixed(2)} |`);
}
console.log(`\n### Salesforce sync, ${RECORDS} Contacts, first run (read, validate, write back)\n`);
console.log('| API latency | records | records/s | API calls | API floor s (calls × latency) | run s | run / floor |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
for (const r of rows) console.log(r);
console.log(`\nrun / floor at ${LATENCY} ms: ${ratio.toFixed(2)} (target <= ${TARGET}) -> ${ratio <= TARGET ? 'PASS' : 'FAIL'}`);
