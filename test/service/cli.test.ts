import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

async function cli(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, ['src/cli.ts', ...args], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } });
    return { code: 0, out: JSON.parse(stdout), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, stderr: JSON.parse(e.stderr.trim().split('\n').pop()!) };
  }
}

describe.each(testDatabases)('the command line on $name', (database) => {
  afterAll(() => database.dropAll());

  it('When an operator manages an account from the CLI, then every command answers one JSON object', async () => {
    const db = await database.create();

    const account = await cli(db, 'accounts', 'create', '--name', 'Acme');
    const id = account.out.account_id;
    const key = await cli(db, 'keys', 'create', '--account', id);
    const revoked = await cli(db, 'keys', 'revoke', '--key', key.out.key_id);
    const pack = await cli(db, 'credits', 'buy', '--account', id, '--pack', '50000');
    const grant = await cli(db, 'credits', 'grant', '--account', id, '--credits', '7', '--expires-in-days', '30');
    const shown = await cli(db, 'credits', 'show', '--account', id);

    expect(account.out).toMatchObject({ account_id: expect.stringMatching(/^acct_/), api_key: expect.stringMatching(/^cv_live_/), balance: 100 });
    expect(key.out).toMatchObject({ key_id: expect.stringMatching(/^key_/), api_key: expect.stringMatching(/^cv_live_/) });
    expect(revoked.out).toMatchObject({ key_id: key.out.key_id, revoked_at: expect.any(String) });
    expect(pack.out).toMatchObject({ kind: 'pack', credits: 50000, price_usd: 175 });
    expect(grant.out).toMatchObject({ kind: 'admin', credits: 7 });
    expect(shown.out.balance).toBe(100 + 50000 + 7);
    expect(shown.out.grants).toHaveLength(3);
  });

  it('When a command is wrong, then a JSON error on stderr and a non-zero exit', async () => {
    const db = await database.create();

    const unknownPack = await cli(db, 'credits', 'buy', '--account', 'acct_nope', '--pack', '123');
    const noAccount = await cli(db, 'credits', 'show', '--account', 'acct_nope');
    const usage = await cli(db, 'frobnicate');

    expect(unknownPack.code).not.toBe(0);
    expect(unknownPack.stderr).toMatchObject({ error: 'invalid_argument', message: expect.stringMatching(/no pack of 123/) });
    expect(noAccount.stderr).toMatchObject({ error: 'not_found' });
    expect(usage.code).toBe(2);
    expect(usage.stderr.error).toBe('usage');
  });
});
