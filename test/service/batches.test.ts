/**
 * CSV batches (docs/batches.md) through the real service on SQLite and PostgreSQL: upload, progress, result, the
 * limits and bad input, pause on credit exhaustion and resumption, cancellation, one account never reaching another's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobStore } from '../../src/bulk/job-store.js';
import { DAY_MS } from '../../src/billing/pricing.js';
import { testDatabases } from '../support/databases.js';
import { upload, waitForStatus } from '../support/batches.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

const HEADER = 'Name,Street,City,State,Zip,Email,Phone';
const ROWS = [
  'Ann,6007 Applegate Ln,Louisville,KY,40219,ann@example.com,(502) 713-4410',
  'Bob,1600 Amphitheatre Pkwy,Mountain View,CA,94043,"=HYPERLINK(""http://evil"")",+1 415 555 0101',
  'Empty,,,,,,',
  'Cy,100 Queen St W,Toronto,ON,M5H 2N2,,',
  'Dee,"1 Main St, Apt 4",Springfield,IL,62701,,+14155550102',
];

/** Rows of a CSV text (simple cells: the tests' own results, split on the delimiter outside quotes). */
function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) { row.push(cell); cell = ''; } else if (ch === '\r') continue;
    else if (ch === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += ch;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/** Debits per record of a batch in the ledger: every record charged at most once. */
async function debitsPerRecord(service: TestService, batchId: string): Promise<number[]> {
  const rows = await service.db.all<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'debit' AND request_id LIKE $1 GROUP BY request_id`,
    [`${batchId}:%`],
  );
  return rows.map((r) => Number(r.n));
}

async function balanceOf(service: TestService, accountId: string) {
  return service.ledger.balance(accountId);
}

describe.each(testDatabases)('CSV batches on $name', (database) => {
  const service = useTestService(database, {
    BATCH_CHUNK_ROWS: '2', BATCH_SWEEP_MS: '100', BATCH_LEASE_MS: '2000', BATCH_MAX_BYTES: '20000',
  });

  it('When a CSV file is uploaded, then every row comes back in order with its verdict, charged once as /v1/validate would', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(1_000);
    const csv = `${[HEADER, ...ROWS].join('\r\n')}\r\n`;

    const res = await upload(s, apiKey, csv, { query: '?name=spring%20list&smtp=false' });
    const created = (await res.json()) as Record<string, unknown>;
    if (res.status !== 202) throw new Error(JSON.stringify(created));
    const done = await waitForStatus(s, apiKey, String(created.batch_id), ['completed']);
    const result = await s.get(`/v1/batches/${created.batch_id}/result`, apiKey);
    const rows = parseCsv(await result.text());
    const direct = (await (await s.post('/v1/validate', {
      address: '6007 Applegate Ln, Louisville, KY, 40219', email: 'ann@example.com', phone: '(502) 713-4410', options: { smtp: false },
    }, { key: apiKey })).json()) as Record<string, Record<string, unknown>>;

    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/v1/batches/${created.batch_id}`);
    expect(created).toMatchObject({
      batch_id: expect.stringMatching(/^batch_/), rows_total: 5, name: 'spring list',
      columns: { address: ['Street', 'City', 'State', 'Zip'], email: 'Email', phone: 'Phone', country: null },
    });
    expect(['queued', 'running', 'completed']).toContain(created.status);
    expect(done).toMatchObject({ rows_total: 5, rows_done: 5, rows_failed: 0, eta_seconds: 0, reason: null });
    expect(result.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(rows[0]).toEqual([...HEADER.split(','), 'cv_address_status', 'cv_address_standardized', 'cv_address_dpv',
      'cv_address_zip4', 'cv_email_status', 'cv_email_risk', 'cv_email_smtp', 'cv_email_suggestion', 'cv_phone_status',
      'cv_phone_type', 'cv_phone_carrier', 'cv_phone_e164', 'cv_error', 'cv_address_notes', 'cv_email_reason', 'cv_email_flags',
      'cv_next_action', 'cv_address_lat', 'cv_address_lon', 'cv_address_precision', 'cv_address_evidence',
      'cv_address_changes', 'cv_feedback']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Ann', 'Bob', 'Empty', 'Cy', 'Dee']);
    // The same engines and vocabularies as /v1/validate.
    expect(rows[1].slice(7, 11)).toEqual([direct.address.status, direct.address.standardized, direct.address.dpv, direct.address.zip4 ?? '']);
    expect(rows[1].slice(11, 14)).toEqual([direct.email.status, direct.email.risk, direct.email.smtp]);
    expect(rows[1][18]).toBe(direct.phone.e164);
    // Formula injection neutralised, plain numbers left alone, the input otherwise unchanged.
    expect(rows[2][5]).toBe(`'=HYPERLINK("http://evil")`);
    expect(rows[2][6]).toBe(`'+1 415 555 0101`);
    expect(rows[5][6]).toBe('+14155550102');
    expect(rows[5][1]).toBe('1 Main St, Apt 4');
    expect(rows[3][rows[0].indexOf('cv_error')]).toBe('empty');
    // Charged per row like one request each, once.
    expect(await debitsPerRecord(s, String(created.batch_id))).toEqual([1, 1, 1, 1]);
    expect(1_000 - Number(done.credits_charged) - Number((direct.credits as unknown as { charged: number }).charged))
      .toBe(await balanceOf(s, accountId));
  });

  it('When a file is sent as multipart/form-data with named columns and semicolons, then those columns are used', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const form = new FormData();
    form.append('address_columns', 'Line,Town,Code');
    form.append('phone_column', 'Tel');
    form.append('smtp', 'false');
    form.append('file', new Blob(['\uFEFFLine;Town;Code;Tel;Notes\n6007 Applegate Ln;Louisville KY;40219;;=1+1\n'], { type: 'text/csv' }), 'list.csv');

    const res = await fetch(`${s.url}/v1/batches`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
    const created = (await res.json()) as Record<string, unknown>;
    await waitForStatus(s, apiKey, String(created.batch_id), ['completed']);
    const text = await (await s.get(`/v1/batches/${created.batch_id}/result`, apiKey)).text();
    const rows = parseCsv(text, ';');

    expect(res.status).toBe(202);
    expect(created).toMatchObject({ columns: { address: ['Line', 'Town', 'Code'], email: null, phone: 'Tel' }, delimiter: ';' });
    expect(rows[0].slice(0, 5)).toEqual(['Line', 'Town', 'Code', 'Tel', 'Notes']);
    expect(rows[1][4]).toBe(`'=1+1`);
    expect(rows[1][5]).toBe('verified');
  });

  it('When the upload is not CSV, too large, broken or names no usable column, then a problem says so and nothing is charged or kept', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(100);
    const broken = `${HEADER}\n${ROWS[0]}\n${ROWS[0]},extra\n`;

    const json = await upload(s, apiKey, '{"a":1}', { type: 'application/json' });
    const big = await upload(s, apiKey, `${HEADER}\n${`${ROWS[0]}\n`.repeat(400)}`);
    const grammar = await upload(s, apiKey, broken);
    const noColumns = await upload(s, apiKey, 'Name,Notes\nAnn,hello\n');
    const unknownParameter = await upload(s, apiKey, `${HEADER}\n`, { query: '?emial_column=Email' });
    const noKey = await fetch(`${s.url}/v1/batches`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a\n' });

    expect(json.status).toBe(415);
    expect(await problemOf(json)).toMatchObject({ type: '/problems/unsupported-media-type' });
    expect(big.status).toBe(413);
    expect(await problemOf(big)).toMatchObject({ type: '/problems/batch-too-large', max_bytes: 20000 });
    expect(grammar.status).toBe(422);
    expect(await problemOf(grammar)).toMatchObject({ type: '/problems/invalid-csv', line: 3 });
    expect(noColumns.status).toBe(422);
    expect(await problemOf(noColumns)).toMatchObject({ type: '/problems/invalid-csv', line: 1 });
    expect(unknownParameter.status).toBe(400);
    expect(noKey.status).toBe(401);
    expect(await balanceOf(s, accountId)).toBe(100);
    expect(((await (await s.get('/v1/batches', apiKey)).json()) as { batches: unknown[] }).batches).toEqual([]);
    const uploads = path.join(s.bulk.batches.dir, 'uploads');
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  });

  it("When one account asks for another's batch, then it is answered exactly like a missing one", async () => {
    const s = service();
    const owner = await s.newAccount(100);
    const other = await s.newAccount(100);
    const created = (await (await upload(s, owner.apiKey, `${HEADER}\n${ROWS[0]}\n`)).json()) as { batch_id: string };
    await waitForStatus(s, owner.apiKey, created.batch_id, ['completed']);

    const answers = [
      await s.get(`/v1/batches/${created.batch_id}`, other.apiKey),
      await s.get(`/v1/batches/${created.batch_id}/result`, other.apiKey),
      await fetch(`${s.url}/v1/batches/${created.batch_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${other.apiKey}` } }),
      await s.post(`/v1/batches/${created.batch_id}/resume`, {}, { key: other.apiKey }),
      await s.get('/v1/batches/batch_doesnotexist', other.apiKey),
    ];
    const list = (await (await s.get('/v1/batches', other.apiKey)).json()) as { batches: unknown[] };

    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await problemOf(res)).toMatchObject({ type: '/problems/not-found' });
    }
    expect(list.batches).toEqual([]);
    expect((await s.get(`/v1/batches/${created.batch_id}`, owner.apiKey)).status).toBe(200);
  });

  it('When credits run out mid-batch, then it pauses with its rows kept, and goes on by itself once credits are added', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(9); // 3 credits a row: a US address 1, a phone 2
    const rows = Array.from({ length: 10 }, (_, i) => `${100 + i} Main St,Louisville,KY,40219,+1 502 713 44${10 + i}`);
    const created = (await (await upload(s, apiKey, `Street,City,State,Zip,Phone\n${rows.join('\n')}\n`)).json()) as { batch_id: string };

    await waitForStatus(s, apiKey, created.batch_id, ['paused']);
    // The other chunk in flight when the first paused the batch may still keep a row it could pay for: let it settle.
    await new Promise((r) => setTimeout(r, 300));
    const paused = await waitForStatus(s, apiKey, created.batch_id, ['paused']);
    const early = await s.get(`/v1/batches/${created.batch_id}/result`, apiKey);
    const partial = parseCsv(await (await s.get(`/v1/batches/${created.batch_id}/result?partial=true`, apiKey)).text());
    await s.accounts.grantCredits(accountId, 100);
    const done = await waitForStatus(s, apiKey, created.batch_id, ['completed']);

    expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted' });
    expect(Number(paused.rows_done)).toBeGreaterThan(0);
    expect(Number(paused.rows_done)).toBeLessThan(10);
    expect(early.status).toBe(409);
    expect(await problemOf(early)).toMatchObject({ type: '/problems/batch-not-ready', batch_status: 'paused' });
    expect(partial.length - 1).toBe(Number(paused.rows_done));
    expect(done).toMatchObject({ rows_done: 10, rows_failed: 0, reason: null });
    expect(await debitsPerRecord(s, created.batch_id)).toEqual(Array(10).fill(1));
    expect(done.credits_charged).toBe(10 * 3);
    expect(await balanceOf(s, accountId)).toBe(9 + 100 - 30);
  });

  it('When a paused batch is resumed by hand, then it runs again; a batch that is not paused cannot be', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(2);
    const created = (await (await upload(s, apiKey, `Phone\n+1 502 713 4410\n+1 502 713 4411\n+1 502 713 4412\n`)).json()) as { batch_id: string };
    await waitForStatus(s, apiKey, created.batch_id, ['paused']);

    // Still no credits for the next row: it runs, and pauses again at once.
    const resumed = await s.post(`/v1/batches/${created.batch_id}/resume`, {}, { key: apiKey });
    const resumedBody = (await resumed.json()) as Record<string, unknown>;
    const pausedAgain = await waitForStatus(s, apiKey, created.batch_id, ['paused']);
    await s.accounts.grantCredits(accountId, 4);
    const done = await waitForStatus(s, apiKey, created.batch_id, ['completed']);
    const again = await s.post(`/v1/batches/${created.batch_id}/resume`, {}, { key: apiKey });

    expect(resumed.status).toBe(202);
    expect(['running', 'paused']).toContain(resumedBody.status);
    expect(pausedAgain).toMatchObject({ rows_done: 1, reason: 'credits_exhausted' });
    expect(done).toMatchObject({ rows_done: 3, credits_charged: 6 });
    expect(await debitsPerRecord(s, created.batch_id)).toEqual([1, 1, 1]);
    expect(again.status).toBe(409);
    expect(await problemOf(again)).toMatchObject({ type: '/problems/batch-not-paused' });
  });

  it('When a batch is deleted, then it is canceled, its files and results are gone, and its result answers 410', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(0);
    const created = (await (await upload(s, apiKey, `${HEADER}\n${ROWS[0]}\n`)).json()) as { batch_id: string };
    await waitForStatus(s, apiKey, created.batch_id, ['paused']);
    const dir = path.join(s.bulk.batches.dir, created.batch_id);
    const hadFiles = fs.existsSync(dir);

    const deleted = await fetch(`${s.url}/v1/batches/${created.batch_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await deleted.json()) as Record<string, unknown>;
    await s.accounts.grantCredits(accountId, 100);
    await s.bulk.runner.sweep();
    const result = await s.get(`/v1/batches/${created.batch_id}/result?partial=true`, apiKey);

    expect(hadFiles).toBe(true);
    expect(deleted.status).toBe(200);
    expect(body).toMatchObject({ status: 'canceled' });
    expect(fs.existsSync(dir)).toBe(false);
    expect(result.status).toBe(410);
    expect((await (await s.get(`/v1/batches/${created.batch_id}`, apiKey)).json())).toMatchObject({ status: 'canceled', rows_done: 0 });
  });

  it('When a batch is deleted just as it completes, or while it runs, then the service stays up and stops charging for it', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(100_000);
    const small = (await (await upload(s, apiKey, `${HEADER}\n${ROWS[0]}\n`)).json()) as { batch_id: string };
    await waitForStatus(s, apiKey, small.batch_id, ['completed']);
    const rows = Array.from({ length: 300 }, (_, i) => `${100 + i} Main St,Louisville,KY,40219,+1 502 713 ${String(4000 + i).padStart(4, '0')}`); // under BATCH_MAX_BYTES
    const big = (await (await upload(s, apiKey, `Street,City,State,Zip,Phone\n${rows.join('\n')}\n`)).json()) as { batch_id: string };

    const deletedSmall = await fetch(`${s.url}/v1/batches/${small.batch_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    const result = await s.get(`/v1/batches/${small.batch_id}/result`, apiKey);
    const deletedBig = await fetch(`${s.url}/v1/batches/${big.batch_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    const chargedAtCancel = 100_000 - (await balanceOf(s, accountId));
    await new Promise((r) => setTimeout(r, 1_000));
    const chargedAfter = 100_000 - (await balanceOf(s, accountId));

    expect(deletedSmall.status).toBe(200);
    expect(await deletedSmall.json()).toMatchObject({ status: 'canceled' });
    expect(result.status).toBe(410);
    expect(deletedBig.status).toBe(200);
    // Only records already in flight when it was canceled may still be paid for (BATCH_CONCURRENCY of them at most).
    expect(chargedAfter - chargedAtCancel).toBeLessThanOrEqual(96 * 3);
    expect((await s.get('/healthz')).status).toBe(200);
  });

  it('When a batch is past its retention, then the sweeper deletes it with its files', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = (await (await upload(s, apiKey, `${HEADER}\n${ROWS[0]}\n`)).json()) as { batch_id: string };
    await waitForStatus(s, apiKey, created.batch_id, ['completed']);
    const later = new JobStore(s.db, () => Date.now() + 31 * DAY_MS);

    const expired = await later.deleteExpired();
    for (const id of expired) await s.bulk.runner.discard(id);

    expect(expired).toContain(created.batch_id);
    expect((await s.get(`/v1/batches/${created.batch_id}`, apiKey)).status).toBe(404);
    expect(fs.existsSync(path.join(s.bulk.batches.dir, created.batch_id))).toBe(false);
  });

  it('When every chunk of a running batch is done but nothing completed it (two chunks ended at once), then the sweeper does', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = (await (await upload(s, apiKey, `${HEADER}\n${ROWS[0]}\n`)).json()) as { batch_id: string };
    await waitForStatus(s, apiKey, created.batch_id, ['completed']);
    // What READ COMMITTED leaves when the last two chunks finish in parallel: each saw the other still running.
    await s.db.run(`UPDATE bulk_jobs SET status = 'running', finished_at = NULL WHERE id = $1`, [created.batch_id]);

    await s.bulk.runner.sweep();
    const batch = (await (await s.get(`/v1/batches/${created.batch_id}`, apiKey)).json()) as Record<string, unknown>;

    expect(batch).toMatchObject({ status: 'completed', rows_done: 1 });
    expect(batch.finished_at).toBeTruthy();
  });
});
