/**
 * The service's memory at rest, as `npm start` runs it (the compiled entry on a throw-away SQLite file, network checks
 * off): its resident set (/proc VmRSS) and V8's heap (GET /metrics) two seconds after it listens, then again after
 * twenty /v1/validate requests. The room a hostile upload has under its memory bound (test/service/batch-limits.test.ts)
 * is what rest leaves.
 *
 *     npm run -s bench:memory
 */
import { spawnCompiledService } from '../test/support/quiet-service.js';
import { rssMiB } from './process-usage.js';

const SETTLE_MS = 2_000;
const WARM_REQUESTS = 20;
const MiB = 1024 * 1024;

/** process_resident_memory_bytes and nodejs_heap_size_* as the service's /metrics tells them, in MiB. */
async function metrics(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / MiB;
  return { heapUsed: value('nodejs_heap_size_used_bytes'), heapTotal: value('nodejs_heap_size_total_bytes') };
}

const service = await spawnCompiledService({ accounts: [{ name: 'resting', credits: 1_000 }] });
try {
  const reading = async (when: string) => {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const { heapUsed, heapTotal } = await metrics(service.url);
    return { when, rss: rssMiB(service.pid), heapUsed, heapTotal };
  };
  const rows = [await reading('at rest')];
  for (let i = 0; i < WARM_REQUESTS; i++) {
    const res = await fetch(`${service.url}/v1/validate`, {
      method: 'POST', headers: { authorization: `Bearer ${service.funded[0].apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: '6007 Applegate Ln, Louisville, KY 40219', email: 'ann@example.com', phone: '+1 502 713 4410' }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/v1/validate answered ${res.status}`);
  }
  rows.push(await reading(`after ${WARM_REQUESTS} /v1/validate`));
  console.log('| when | RSS MiB | heap used MiB | heap total MiB |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.when} | ${r.rss.toFixed(0)} | ${r.heapUsed.toFixed(0)} | ${r.heapTotal.toFixed(0)} |`);
} finally {
  await service.stop();
}
