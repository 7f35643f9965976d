/**
 * A first CSV that costs more than the free credits (issue 39, item 4): the dashboard says why the batch stopped, what
 * finishing it costs, how to get credits (the operator's command when card payments are not set up; the command is
 * run here as printed), and Resume finishes it. Before an upload, the page's script asks what the file will cost.
 * And the service's icon (item 9).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateCredits } from '../../src/billing/pricing.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';
import { WebAgent } from './web-agent.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'correct horse battery';
const ROWS = 50;
/** 50 rows of a US address (1 credit) and a phone number (2): 150 credits, more than the free 100. */
const CSV = `street,city,state,zip,phone\n${Array.from({ length: ROWS }, (_, i) =>
  `${100 + i} Main St,Springfield,IL,62701,+1 415 555 ${String(1000 + i)}`).join('\n')}\n`;

interface BatchStatus { batch_id: string; status: string; reason: string | null; rows_done: number; rows_total: number; credits_charged: number }

describe.each(testDatabases)('paying for a batch in the dashboard on $name', (database) => {
  let s: TestService;
  let mail: MailCatcher;
  let n = 0;

  beforeAll(async () => {
    mail = await startMailCatcher();
    // The sweeper would resume a paused batch by itself once credits arrive; here Resume is pressed by hand.
    s = await startTestService(await database.create(), {
      SMTP_URL: mail.url, FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', BATCH_SWEEP_MS: '600000',
    });
  });
  afterAll(async () => {
    await s?.close();
    await mail?.close();
    await database.dropAll();
  });

  async function signedUp() {
    const agent = new WebAgent(s.url);
    const email = `first-${++n}-${Date.now()}@example.com`;
    const signedUp = await agent.signUp(email, PASSWORD);
    // The address is confirmed from the mailed link; the person signs in unless the sign-up did.
    const link = new URL(await mail.link(email, '/confirm'));
    await agent.get(link.pathname + link.search);
    const res = signedUp.status === 303 ? signedUp : await agent.signIn(email, PASSWORD);
    if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
    await agent.get('/batches');
    return agent;
  }

  const cookieOf = (agent: WebAgent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  async function statusOf(agent: WebAgent, id: string, until: (b: BatchStatus) => boolean): Promise<BatchStatus> {
    for (let i = 0; ; i++) {
      const b = JSON.parse((await agent.get(`/batches/${id}/status`, { accept: 'application/json' })).text) as BatchStatus;
      if (until(b) || i === 200) return b;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('When a first CSV costs more than the free credits, then the page says why it paused, what finishing costs, how to get credits, and Resume (with its form token) finishes it', async () => {
    // Arrange: a new account (100 free credits) uploads 50 rows costing about 150.
    const agent = await signedUp();
    const form = new FormData();
    form.append('smtp', 'false');
    form.append('file', new Blob([CSV], { type: 'text/csv' }), 'contacts.csv');
    const upload = await fetch(`${s.url}/batches`, {
      method: 'POST', body: form, headers: { cookie: cookieOf(agent), 'x-csrf-token': agent.csrf, accept: 'application/json' },
    });
    const { batch_id: id } = (await upload.json()) as BatchStatus;
    const paused = await statusOf(agent, id, (b) => b.status === 'paused');

    // Act: the page the upload's redirect opens, and the billing page.
    const page = await agent.get('/batches?done=batch-uploaded');
    const billing = await agent.get('/billing');

    // Assert: the reason in words, the cost of the rest, the operator's command (no Stripe here), Resume.
    const toFinish = estimateCredits(ROWS - paused.rows_done, { address: true, email: false, phone: true }, { rows: paused.rows_done, credits: paused.credits_charged });
    expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted', rows_total: ROWS });
    expect(page.text).not.toContain('being checked');
    expect(page.text).toContain('A batch is paused: the account ran out of credits.');
    expect(page.text).toContain('Paused: the account ran out of credits.');
    expect(page.text).toMatch(new RegExp(`The other ${ROWS - paused.rows_done} cost about <strong data-testid="cost-to-finish">${toFinish.credits}</strong> credits`));
    expect(page.text).toContain(`action="/batches/${id}/resume"`);
    const command = /data-testid="grant-command"><code>([^<]+)<\/code>/.exec(page.text)?.[1];
    expect(command).toMatch(/^npm run -s cli -- credits grant --account acct_\S+ --credits \d+00$/);
    expect(billing.text).toMatch(/data-testid="grant-command"><code>npm run -s cli -- credits grant --account acct_\S+ --credits 1000</);
    expect(billing.text).not.toContain('ask its operator');

    // Act: a forged Resume (no form token) first; then the operator runs the command as printed, and Resume.
    const forged = await agent.post(`/batches/${id}/resume`, {}, { csrf: false });
    const stillPaused = await statusOf(agent, id, () => true);
    const [npm, ...args] = command!.split(' ');
    const granted = await run(npm, args, { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrlOf(s), LOG_LEVEL: 'silent' } });
    const resumed = await agent.post(`/batches/${id}/resume`, {});
    const done = await statusOf(agent, id, (b) => b.status === 'completed');
    const after = await agent.get('/batches');

    // Assert: the forged request changed nothing; the batch finished, and nothing on the page says paused any more.
    expect([forged.status, stillPaused.status]).toEqual([403, 'paused']);
    expect(JSON.parse(granted.stdout)).toMatchObject({ credits: Number(command!.split(' ').at(-1)) });
    expect(resumed).toMatchObject({ status: 303, location: '/batches?done=batch-resumed' });
    expect(done).toMatchObject({ status: 'completed', rows_done: ROWS });
    expect(after.text).not.toContain('data-testid="paused-batch"');
    expect(after.text).toContain(`/batches/${id}/result`);
  }, 60_000);

  it('When a file is chosen, then the page is told what it will cost from its header and row count, before anything is sent', async () => {
    const agent = await signedUp();
    const ask = (body: unknown, csrf = agent.csrf) => fetch(`${s.url}/batches/estimate`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { cookie: cookieOf(agent), 'x-csrf-token': csrf, accept: 'application/json', 'content-type': 'application/json' },
    });

    const priced = await ask({ header: 'name,Email,Mobile Phone,Mailing Street,Mailing City', rows: 1000 });
    const named = await ask({ header: 'a;b;c', rows: 10, email_column: 'b' });
    const none = await ask({ header: 'first,last', rows: 10 });
    const forged = await ask({ header: 'email', rows: 10 }, 'x'.repeat(43));

    expect(priced.status).toBe(200);
    expect(await priced.json()).toMatchObject({ rows: 1000, credits: 4000, most: 7000, balance: 100, columns: { email: 'Email', phone: 'Mobile Phone', address: ['Mailing Street', 'Mailing City'] } });
    expect(await named.json()).toMatchObject({ rows: 10, credits: 10, most: 10 });
    expect(none.status).toBe(422);
    expect(await none.json()).toMatchObject({ detail: expect.stringContaining('no address, e-mail or phone column') });
    expect(forged.status).toBe(403);
  });

  it('When the header sent for an estimate holds a quote never closed, then it is 422 invalid-csv naming line 1, as the upload answers, not a 500', async () => {
    // Arrange: the same header as the first line of a file the API refuses.
    const agent = await signedUp();
    const header = 'email,"phone';
    const ask = await fetch(`${s.url}/batches/estimate`, {
      method: 'POST', body: JSON.stringify({ header, rows: 10 }),
      headers: { cookie: cookieOf(agent), 'x-csrf-token': agent.csrf, accept: 'application/json', 'content-type': 'application/json' },
    });
    const upload = await fetch(`${s.url}/batches`, {
      method: 'POST', body: `${header}\nann@example.com,1\n`,
      headers: { cookie: cookieOf(agent), 'x-csrf-token': agent.csrf, accept: 'application/json', 'content-type': 'text/csv' },
    });

    // Assert: the estimate says what the upload says.
    const [estimated, uploaded] = [await ask.json(), await upload.json()] as Record<string, unknown>[];
    expect([ask.status, upload.status]).toEqual([422, 422]);
    expect(ask.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(estimated).toMatchObject({ type: '/problems/invalid-csv', line: 1, detail: expect.stringMatching(/^Line 1: .*never closed/) });
    expect(uploaded).toMatchObject({ type: '/problems/invalid-csv', line: 1, detail: expect.stringMatching(/^Line 1: .*never closed/) });
  });

  it('When a file whose header is over BATCH_MAX_ROW_BYTES is uploaded in the dashboard, then it is 422 invalid-csv naming line 1, as the API answers', async () => {
    // Arrange: 40 columns of 30,000 bytes, 1.2 MB on the header line; the estimate only ever sees its first 16 KiB.
    const agent = await signedUp();
    const header = Array.from({ length: 40 }, (_, i) => `c${i}${'x'.repeat(30_000)}`).join(',');

    // Act
    const upload = await fetch(`${s.url}/batches`, {
      method: 'POST', body: `${header},email\n${','.repeat(40)}ann@example.com\n`,
      headers: { cookie: cookieOf(agent), 'x-csrf-token': agent.csrf, accept: 'application/json', 'content-type': 'text/csv' },
    });

    // Assert
    expect(upload.status).toBe(422);
    expect(await upload.json()).toMatchObject({
      type: '/problems/invalid-csv', line: 1, detail: 'Line 1: the row is over 1048576 bytes (BATCH_MAX_ROW_BYTES). Nothing was charged.',
    });
  });

  it('When a browser asks for /favicon.ico or the pages name their icon, then a real icon answers', async () => {
    const ico = await fetch(`${s.url}/favicon.ico`);
    const bytes = Buffer.from(await ico.arrayBuffer());
    const svg = await fetch(`${s.url}/favicon.svg`);
    const page = await (await fetch(`${s.url}/signin`)).text();

    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICONDIR: reserved 0, type 1 (icon)
    expect(bytes.readUInt16LE(4)).toBeGreaterThanOrEqual(1);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg /);
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});
