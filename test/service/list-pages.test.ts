/**
 * Lists a page at a time (docs/api.md#lists), against the real service on SQLite and PostgreSQL: `limit`,
 * `starting_after` and `has_more`/`next_starting_after` walk every batch once, newest first, even when a batch is
 * uploaded between two pages; a cursor of another account is refused like a made-up one; the keyset breaks ties of
 * time by id.
 */
import { describe, expect, it } from 'vitest';
import { keysetPage } from '../../src/db/pages.js';
import { json, request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService } from '../support/service.js';

const CSV = 'email\r\nann@example.com\r\n';

describe.each(testDatabases)('list pages on $name', (database) => {
  const s = useTestService(database, { BATCH_SWEEP_MS: '200' });

  async function upload(key: string, name: string) {
    const res = await fetch(`${s().url}/v1/batches?smtp=false&name=${name}`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: CSV,
    });
    expect(res.status, await res.clone().text()).toBe(202);
    return (await json(res)).batch_id as string;
  }
  async function page(key: string, query: string) {
    const res = await request(s(), 'GET', `/v1/batches${query}`, key);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await json(res)) as { batches: { batch_id: string; name: string }[]; has_more: boolean; next_starting_after: string | null };
  }

  it('When an account with 7 batches lists 3 at a time, then it gets each once, newest first, with one uploaded meanwhile left for the first page', async () => {
    // Arrange
    const { apiKey } = await s().newAccount(100);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) ids.push(await upload(apiKey, `b${i}`));

    // Act
    const first = await page(apiKey, '?limit=3');
    const late = await upload(apiKey, 'late');
    const second = await page(apiKey, `?limit=3&starting_after=${first.next_starting_after}`);
    const third = await page(apiKey, `?limit=3&starting_after=${second.next_starting_after}`);
    const whole = await page(apiKey, '');

    // Assert
    expect([first, second, third].map((p) => p.has_more)).toEqual([true, true, false]);
    expect(third.next_starting_after).toBeNull();
    const walked = [first, second, third].flatMap((p) => p.batches.map((b) => b.batch_id));
    expect(walked).toEqual([...ids].reverse());
    expect(first.next_starting_after).toBe(first.batches[2].batch_id);
    expect(whole.batches.map((b) => b.batch_id)).toEqual([late, ...[...ids].reverse()]);
    expect(whole.has_more).toBe(false);
  });

  it("When a page starts after another account's batch, a made-up id or a limit out of range, then 400 names the parameter", async () => {
    // Arrange
    const a = await s().newAccount(100);
    const b = await s().newAccount(100);
    const theirs = await upload(b.apiKey, 'theirs');

    // Act
    const answers = await Promise.all([`?starting_after=${theirs}`, '?starting_after=job_made_up', '?limit=0', '?limit=101']
      .map((q) => request(s(), 'GET', `/v1/batches${q}`, a.apiKey)));

    // Assert
    for (const res of answers) expect(res.status).toBe(400);
    const [foreign, madeUp, zero] = await Promise.all(answers.slice(0, 3).map(problemOf));
    expect(foreign).toMatchObject({ errors: [{ field: 'starting_after' }] });
    expect(madeUp).toMatchObject({ errors: [{ field: 'starting_after' }] });
    // Another account's batch is answered exactly as one that never existed.
    expect(foreign.title).toBe(madeUp.title);
    expect(JSON.stringify(zero)).toContain('limit');
  });

  it('When 25 rows share 10 of their times, then pages of 4 walk them all once in (time, id) order', async () => {
    // Arrange
    const db = s().db;
    await db.run('CREATE TABLE page_probe (id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at BIGINT NOT NULL)');
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, at: i < 10 ? 5_000 : 1_000 + i }));
    for (const r of rows) await db.run('INSERT INTO page_probe (id, owner, created_at) VALUES ($1, $2, $3)', [r.id, 'me', r.at]);
    await db.run('INSERT INTO page_probe (id, owner, created_at) VALUES ($1, $2, $3)', ['other', 'them', 5_000]);
    const list = { table: 'page_probe', columns: 'id', where: 'owner = $1', params: ['me'], time: 'created_at' };

    // Act
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const found = await keysetPage<{ id: string }>(db, list, { limit: 4, ...(after ? { startingAfter: after } : {}) });
      pages++;
      seen.push(...found.items.map((r) => r.id));
      if (!found.hasMore) break;
      after = found.items.at(-1)!.id;
    }

    // Assert
    const expected = [...rows].sort((x, y) => y.at - x.at || (x.id < y.id ? 1 : -1)).map((r) => r.id);
    expect(seen).toEqual(expected);
    expect(pages).toBe(7);
    await expect(keysetPage(db, list, { limit: 4, startingAfter: 'other' })).rejects.toThrow(/no item "other"/);
  });
});
