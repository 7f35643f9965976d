/**
 * `npm run bench:stages`: what each stage of a POST /v1/validate costs, in CPU microseconds per request, measured
 * in-process on the real components (the service on a throw-away SQLite file, the shipped engines, network checks
 * off) with the bench:validate bodies. It answers "where do the microseconds over a bare endpoint go" with figures
 * that add up, where bench:validate's --profile gives shares. HTTP itself (Express, body parsing, the socket) is not
 * in it: bench:validate measures that against the bare endpoint.
 *
 * Ledger stages run with requests in flight together (BATCH of them per event-loop turn, as under load), so that a
 * group commit is shared as it is in the service; their wall time includes the commit spacing and is not shown.
 */
import os from 'node:os';
import { contactInputOf, validateRequestSchema } from '../src/contact-check/contact-request.js';
import { openEngines } from '../src/service.js';
import { ContactValidation } from '../src/contact-check/validate-contact.js';
import { startQuietService } from '../test/support/quiet-service.js';
import { validateBodies } from './validate-bodies.js';

const ITERATIONS = 20_000;
const WARMUP = 3_000;
const BATCH = 8;

const service = await startQuietService({ accounts: [{ name: 'stages', credits: 50_000_000 }], env: { REFERENCE_RELOAD_MS: '0' } });
try {
  const [{ accountId, apiKey }] = service.funded;
  const engines = await openEngines(service.config, service.db);
  const validation = new ContactValidation(engines, service.ledger, service.config.validationBudgetMs);
  const bodies = validateBodies().map((b) => JSON.parse(b) as unknown);
  const inputs = bodies.map((b) => contactInputOf(validateRequestSchema.parse(b)));
  const at = (i: number) => inputs[i % inputs.length];
  const deadline = () => Date.now() + 60_000;
  let serial = 0;
  const requestId = () => `req_stages_${Date.now().toString(16)}_${serial++}`;

  /** CPU µs per call (user + system of this process, so GC is included), `batch` calls in flight at a time. */
  async function cpuMicros(run: (i: number) => unknown, batch = 1): Promise<number> {
    const go = async (n: number) => {
      for (let i = 0; i < n; i += batch) {
        const pending: unknown[] = [];
        for (let k = 0; k < batch; k++) pending.push(run(i + k));
        await Promise.all(pending);
      }
    };
    await go(WARMUP);
    const before = process.cpuUsage();
    await go(ITERATIONS);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / ITERATIONS;
  }

  const emailCharge = [{ module: 'email' as const, credits: 1 }];
  const stages: [string, (i: number) => unknown, number?][] = [
    ['authenticate (a key seen before)', () => service.accounts.authenticate(apiKey)],
    ['request schema (zod)', (i) => validateRequestSchema.parse(bodies[i % bodies.length])],
    ['price (country, phone reading, e-mail offline answer)', (i) => validation.price(at(i))],
    ['address engine', (i) => engines.address.validate(at(i).address!, { country: at(i).country, deadline: deadline() })],
    ['e-mail engine (offline)', (i) => engines.email.validate(at(i).email!, { smtp: false, deadline: deadline() })],
    ['phone engine (with the pricing reading)', (i) => {
      const reading = engines.phone.offlineReading(at(i).phone!, at(i).country);
      return engines.phone.validate(at(i).phone!, { country: at(i).country, deadline: deadline(), reading });
    }],
    ['ledger debit (durable, group commit)', () => service.ledger.debit(accountId, emailCharge, requestId()), BATCH],
    ['ledger debit + refund of it', async () => {
      const id = requestId();
      const debit = await service.ledger.debit(accountId, emailCharge, id);
      if (debit.ok) await service.ledger.refundDraws(accountId, id, debit.draws);
    }, BATCH],
    ['whole use case (price, debit, engines, refund)', (i) => validation.validate(accountId, requestId(), at(i), Date.now(), service.logger), BATCH],
  ];

  console.log(`CPU µs per request of each stage of POST /v1/validate (node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}; ${ITERATIONS} calls each, ${BATCH} in flight for the ledger)`);
  const rows: { stage: string; 'cpu µs': string }[] = [];
  for (const [stage, run, batch] of stages) rows.push({ stage, 'cpu µs': (await cpuMicros(run, batch)).toFixed(1) });
  console.table(rows);
  await engines.close();
} finally {
  await service.close();
}
