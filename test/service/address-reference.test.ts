import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, startTestService } from '../support/service.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe.each(testDatabases)('address reference data through the service on $name', (database) => {
  it('When the service starts on an empty database, then the embedded RRAD points confirm a real address', async () => {
    const service = await startTestService(await database.create());
    try {
      const { apiKey } = await service.newAccount(10);

      const res = await service.post('/v1/validate', { address: '6007 applegate ln, louisville ky 40219' }, { key: apiKey });

      const { address } = await res.json() as any;
      expect(address).toMatchObject({ status: 'verified', dpv: 'Y', country: 'US' });
      expect(address.standardized).toMatch(/^6007 APPLEGATE LN LOUISVILLE KY 40219/);

      // The points are a sample: another number of the street is neither confirmed nor denied.
      const next = await (await service.post('/v1/validate', { address: '6009 applegate ln, louisville ky 40219' }, { key: apiKey })).json() as any;
      expect(next.address).toMatchObject({ status: 'plausible', dpv: '', zip4: null });
      expect(next.address.footnotes).toContain('DPV: the embedded address points are a sample holding other numbers of this street, not this one; neither confirmed nor denied');
    } finally {
      await service.close();
      await database.dropAll();
    }
  });

  const importFromCli = async (url: string) => {
    const { stdout } = await run(process.execPath,
      ['scripts/start.mjs', 'cli', 'reference', 'import', '--format', 'usps-zip4', 'test/address/fixtures/usps-zip4-sample.txt'],
      { cwd: root, env: { ...process.env, DATABASE_URL: url } });
    return JSON.parse(stdout);
  };
  const GOOGLEPLEX = { address: '1600 Amphitheatre Parkway, Mountain View, CA 94043' };

  it('When an operator imports a USPS ZIP+4 file from the CLI, then the next start confirms with the ZIP+4 add-on', async () => {
    const url = await database.create();
    const counts = await importFromCli(url);
    expect(counts).toMatchObject({ read: expect.any(Number), loaded: expect.any(Number), rejected: expect.any(Number) });
    expect(counts.loaded).toBeGreaterThan(0);

    const service = await startTestService(url);
    try {
      const { apiKey } = await service.newAccount(10);

      const res = await service.post('/v1/validate', GOOGLEPLEX, { key: apiKey });

      const { address } = await res.json() as any;
      expect(address.dpv).not.toBe('');
      expect(address.zip4).toBe('94043-1351');
    } finally {
      await service.close();
      await database.dropAll();
    }
  });

  it('When an operator imports an address file as a sample from the CLI, then its points confirm and deny no other number', async () => {
    const url = await database.create();
    const cli = (args: string[]) => run(process.execPath, ['scripts/start.mjs', 'cli', 'reference', 'import', ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: url } });
    const counts = JSON.parse((await cli(['--format', 'openaddresses', '--sample', 'test/address/fixtures/openaddresses-applegate.csv'])).stdout);
    expect(counts).toMatchObject({ format: 'openaddresses', sample: true, loaded: 3, rejected: 0 });
    // A ZIP+4 file lists whole ZIP codes: no sample.
    await expect(cli(['--format', 'usps-zip4', '--sample', 'test/address/fixtures/usps-zip4-sample.txt'])).rejects.toMatchObject({ stderr: expect.stringMatching(/--sample is for address-point files/) });
    // `reference status` lists the import (the refused one is not there) and what the tables hold.
    const status = JSON.parse((await run(process.execPath, ['scripts/start.mjs', 'cli', 'reference', 'status'],
      { cwd: root, env: { ...process.env, DATABASE_URL: url } })).stdout);
    expect(status).toMatchObject({ points: 3, points_complete: 0, ranges: 0, postal_codes: { points: 1, ranges: 0 } });
    expect(status.imports).toEqual([expect.objectContaining({ format: 'openaddresses', sample: true, read: 3, loaded: 3, deleted: 0, rejected: 0 })]);

    const service = await startTestService(url);
    try {
      const { apiKey } = await service.newAccount(10);
      const check = async (address: string) => ((await (await service.post('/v1/validate', { address }, { key: apiKey })).json()) as any).address;
      expect(await check('6011 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'verified', dpv: 'Y' });
      expect(await check('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'plausible', dpv: '' });
    } finally {
      await service.close();
      await database.dropAll();
    }
  });

  it('When an operator imports from the CLI while the service runs, then the service uses the new data without a restart', async () => {
    const service = await startTestService(await database.create(), { REFERENCE_RELOAD_MS: '100' });
    try {
      const { apiKey } = await service.newAccount(100);
      const zip4Now = async () => ((await (await service.post('/v1/validate', GOOGLEPLEX, { key: apiKey })).json()) as any).address.zip4;
      const before = await zip4Now();

      await importFromCli(databaseUrlOf(service));
      let after = await zip4Now();
      for (let tries = 0; after === null && tries < 50; tries++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await zip4Now();
      }

      expect(before).toBeNull();
      expect(after).toBe('94043-1351');
    } finally {
      await service.close();
      await database.dropAll();
    }
  });
});
