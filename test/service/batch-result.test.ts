/**
 * The result file of a CSV batch through the real service on SQLite and PostgreSQL: cells with line breaks stay one
 * record (issue 38.5), the columns that say why (39.6), `formula_escape=false`, the name taken from the uploaded file
 * and the download's file name (39.5), a header without rows refused (39.7).
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { VERDICT_COLUMNS } from '../../src/bulk/record-pipeline.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';
import { upload, waitForStatus } from '../support/batches.js';

/** Records as a spreadsheet splits them: any line break outside quotes ends one (not only CRLF). */
const recordsOf = (text: string, delimiter = ',') =>
  parse(text, { delimiter, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true }) as string[][];

async function completed(s: TestService, apiKey: string, res: Response) {
  const created = (await res.json()) as Record<string, unknown>;
  if (res.status !== 202) throw new Error(JSON.stringify(created));
  await waitForStatus(s, apiKey, String(created.batch_id), ['completed']);
  return created;
}

const plainFootnote = (note: string) => note.replace(/^[A-Z0-9]{1,4}#?:\s*/, '');

describe.each(testDatabases)('CSV batch results on $name', (database) => {
  const service = useTestService(database, { BATCH_CHUNK_ROWS: '2', BATCH_SWEEP_MS: '100' });

  it('When cells hold a lone LF, a lone CR, a CRLF or a formula after a line break, then each is quoted and every row is one record', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const notes = ['one\ntwo', 'one\rtwo', 'one\r\ntwo', `x\n=cmd|' /C calc'!A0`, '\r=cmd|\' /C calc\'!A0', 'plain'];
    const csv = `Name,Email,Notes\n${notes.map((n, i) => `P${i},p${i}@example.com,"${n}"`).join('\n')}\n`;

    const created = await completed(s, apiKey, await upload(s, apiKey, csv, { query: '?smtp=false' }));
    const text = await (await s.get(`/v1/batches/${created.batch_id}/result`, apiKey)).text();
    const records = recordsOf(text);

    expect(records).toHaveLength(1 + notes.length);
    for (const r of records) expect(r).toHaveLength(3 + VERDICT_COLUMNS.length);
    expect(records.slice(1).map((r) => r[2])).toEqual([...notes.slice(0, 4), `'${notes[4]}`, 'plain']);
    expect(text).toContain(`"x\n=cmd|' /C calc'!A0"`);
    expect(text).toContain('"one\rtwo"');
  });

  it('When a batch completes, then the result says why: address notes in words, the e-mail reason and its flags', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const row = { address: '6007 Applegate Ln, Louisville, KY', email: 'info@mailinator.com' };
    const csv = `Address,Email\n"${row.address}",${row.email}\nnobody,\n`;

    const created = await completed(s, apiKey, await upload(s, apiKey, csv, { query: '?smtp=false' }));
    const [head, first, second] = recordsOf(await (await s.get(`/v1/batches/${created.batch_id}/result`, apiKey)).text());
    const direct = (await (await s.post('/v1/validate', { ...row, options: { smtp: false } }, { key: apiKey })).json()) as {
      next_action: string;
      address: { footnotes: string[]; evidence: string; location: { lat: number; lon: number; precision: string } | null };
      email: { reason: string; disposable: boolean; role: boolean; free: boolean };
    };
    const cell = (r: string[], name: string) => r[head.indexOf(name)];

    // Columns are only ever added at the end (cv_next_action: issue 45; the location and evidence: issue 50; the
    // changes: issue 55; the feedback: issue 54).
    expect(head.slice(-11)).toEqual([
      'cv_error', 'cv_address_notes', 'cv_email_reason', 'cv_email_flags', 'cv_next_action',
      'cv_address_lat', 'cv_address_lon', 'cv_address_precision', 'cv_address_evidence', 'cv_address_changes', 'cv_feedback',
    ]);
    // The embedded RRAD point placed at its own coordinates, as /v1/validate answers it.
    expect(direct.address.location).toMatchObject({ precision: 'parcel' });
    expect([cell(first, 'cv_address_lat'), cell(first, 'cv_address_lon'), cell(first, 'cv_address_precision'), cell(first, 'cv_address_evidence')])
      .toEqual([String(direct.address.location!.lat), String(direct.address.location!.lon), 'parcel', direct.address.evidence]);
    expect([cell(second, 'cv_address_lat'), cell(second, 'cv_address_evidence')]).toEqual(['', 'none']); // `nobody`
    expect(cell(first, 'cv_next_action')).toBe(direct.next_action);
    expect(direct.next_action).toBe('confirm'); // a disposable, role address: the person's call
    expect(direct.address.footnotes.length).toBeGreaterThan(0);
    expect(cell(first, 'cv_address_notes')).toBe(direct.address.footnotes.map(plainFootnote).join('; '));
    expect(cell(first, 'cv_address_notes')).not.toMatch(/#:/);
    expect(cell(first, 'cv_email_reason')).toBe(direct.email.reason);
    expect(cell(first, 'cv_email_flags').split(' ')).toEqual(
      (['disposable', 'role', 'free'] as const).filter((f) => direct.email[f]),
    );
    expect(cell(first, 'cv_email_flags')).toMatch(/disposable/);
    expect([cell(second, 'cv_email_reason'), cell(second, 'cv_email_flags')]).toEqual(['', '']);
    expect(cell(second, 'cv_next_action')).toBe('fix'); // `nobody` is no address
  });

  it('When the result is asked with formula_escape=false, then cells come back exactly as they were', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const csv = 'Phone,Notes\n+1 415 555 0101,=1+1\n';

    const created = await completed(s, apiKey, await upload(s, apiKey, csv, { query: '?smtp=false' }));
    const escaped = recordsOf(await (await s.get(`/v1/batches/${created.batch_id}/result`, apiKey)).text());
    const raw = recordsOf(await (await s.get(`/v1/batches/${created.batch_id}/result?formula_escape=false`, apiKey)).text());
    const bad = await s.get(`/v1/batches/${created.batch_id}/result?formula_escape=no`, apiKey);

    expect(escaped[1].slice(0, 2)).toEqual(["'+1 415 555 0101", "'=1+1"]);
    expect(raw[1].slice(0, 2)).toEqual(['+1 415 555 0101', '=1+1']);
    expect(bad.status).toBe(400);
  });

  it("When a file is uploaded as a form without a name, then the batch takes the file's name and is downloaded as <name>-checked.csv", async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const send = (filename: string, name?: string) => {
      const form = new FormData();
      if (name) form.append('name', name);
      form.append('smtp', 'false');
      form.append('file', new Blob(['Email\na@example.com\n'], { type: 'text/csv' }), filename);
      return fetch(`${s.url}/v1/batches`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
    };

    const fromFile = await completed(s, apiKey, await send('Liste café.csv'));
    const named = await completed(s, apiKey, await send('other.csv', 'spring list'));
    const raw = await completed(s, apiKey, await upload(s, apiKey, 'Email\na@example.com\n', { query: '?smtp=false' }));
    const disposition = async (id: unknown) => (await s.get(`/v1/batches/${id}/result`, apiKey)).headers.get('content-disposition');
    const list = (await (await s.get('/v1/batches', apiKey)).json()) as { batches: { name: string | null }[] };

    expect([fromFile.name, named.name, raw.name]).toEqual(['Liste café.csv', 'spring list', null]);
    expect(list.batches.map((b) => b.name)).toEqual([null, 'spring list', 'Liste café.csv']);
    expect(await disposition(fromFile.batch_id)).toBe(`attachment; filename="Liste caf?-checked.csv"; filename*=UTF-8''Liste%20caf%C3%A9-checked.csv`);
    expect(await disposition(named.batch_id)).toBe('attachment; filename="spring list-checked.csv"');
    expect(await disposition(raw.batch_id)).toBe(`attachment; filename="${raw.batch_id}-checked.csv"`);
  });

  it('When a file has a header and no data row, then it is 422 and nothing is queued or charged', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(100);

    const res = await upload(s, apiKey, 'Name,Email\r\n\r\n');
    const list = (await (await s.get('/v1/batches', apiKey)).json()) as { batches: unknown[] };

    expect(res.status).toBe(422);
    expect(await problemOf(res)).toMatchObject({ type: '/problems/invalid-csv', line: 2, detail: expect.stringMatching(/header but no data rows/) });
    expect(list.batches).toEqual([]);
    expect(await s.ledger.balance(accountId)).toBe(100);
  });
});
