import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { SAFETY_NET_WAL_PAGES, startWalCheckpointer } from '../../src/db/wal-checkpointer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-wal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** About 2 MB of rows, committed in small transactions as the service commits. */
function write(db: Database): void {
  db.sqlite.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.sqlite.prepare('INSERT INTO filler (body) VALUES (?)');
  for (let batch = 0; batch < 40; batch++) db.immediate(() => { for (let i = 0; i < 50; i++) insert.run('x'.repeat(1_000)); });
}

describe('WAL checkpoints on a worker thread (SQLite)', () => {
  it('When the service writes, then the worker copies the WAL into the database file and the serving connection does not', async () => {
    const file = path.join(dir, 'background.sqlite');
    const db = await Database.open(`sqlite:${file}`, { migrate: false });
    const checkpointer = db.checkpointInBackground(20)!;
    expect(db.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_WAL_PAGES);
    const before = fs.statSync(file).size;
    write(db);
    // 2 MB is far under the safety net (10,000 pages): only the worker can have grown the file.
    expect(await until(() => fs.statSync(file).size > before + 1_500_000)).toBe(true);
    expect(checkpointer.failure).toBeNull();
    await db.close();
    expect(Number((await (await Database.open(`sqlite:${file}`, { migrate: false })).all<{ n: number }>('SELECT COUNT(*) AS n FROM filler'))[0].n)).toBe(2_000);
  });

  it('When the database is in memory, then there is no worker', async () => {
    const db = await Database.open('sqlite::memory:', { migrate: false });
    expect(db.checkpointInBackground(20)).toBeNull();
    await db.close();
  });

  it('When the worker cannot open the file, then it gives up and the serving connection checkpoints by itself again', async () => {
    const db = await Database.open(`sqlite:${path.join(dir, 'real.sqlite')}`, { migrate: false });
    const checkpointer = startWalCheckpointer(db.sqlite, path.join(dir, 'missing', 'nothing.sqlite'), 20);
    expect(await until(() => checkpointer.failure !== null)).toBe(true);
    expect(db.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    await checkpointer.stop();
    await db.close();
  });

  it('When nothing else keeps the process alive, then closing the database still waits for the worker and resolves', () => {
    // Arrange: a process whose only work is to open a database with the worker and close it (as a stopping service's
    // last step is), which prints once close() has resolved.
    const script = path.join(dir, 'close-alone.mts');
    fs.writeFileSync(script, [
      `import { Database } from ${JSON.stringify(path.resolve(import.meta.dirname, '../../src/db/data-source.ts'))};`,
      `const db = await Database.open(${JSON.stringify(`sqlite:${path.join(dir, 'alone.sqlite')}`)}, { migrate: false });`,
      'db.checkpointInBackground(60_000);',
      'await db.close();',
      "console.log('closed');",
    ].join('\n'));

    // Act
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 });

    // Assert: before, the process ended with close() pending (the worker was unreferenced), and nothing was printed.
    expect(out.trim()).toBe('closed');
  });
});
