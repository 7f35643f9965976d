/**
 * `npm start` and `npm run cli` run dist/, built by esbuild (scripts/build.mjs) at install and again whenever a source
 * the last build read has changed (scripts/start.mjs). The compiled service must still find the files its modules
 * locate beside their sources, and an edited source must never run stale.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { newAccount, startInstance } from '../support/fleet.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-compiled-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the compiled start', () => {
  it('When the service runs from dist/, then the data, scripts and files it finds beside its sources are there', async () => {
    const databaseUrl = `sqlite:${path.join(scratch, 'service.sqlite')}`;
    const service = await startInstance({ DATABASE_URL: databaseUrl, BATCH_DIR: path.join(scratch, 'batches') });
    try {
      const { apiKey } = await newAccount(databaseUrl, 100);

      const validated = await fetch(`${service.url}/v1/validate`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: '6007 Applegate Ln, Louisville, KY 40219', phone: '(502) 713-4410' }),
      });
      const widget = await fetch(`${service.url}/widget.js`);
      const stylesheet = await fetch(`${service.url}/assets/dashboard.css`);
      const openapi = await fetch(`${service.url}/v1/openapi.json`);

      // The address engine's ZIP and RRAD files, the phone engine's indexes (src/validation/*/data).
      expect(validated.status).toBe(200);
      expect(await validated.json()).toMatchObject({ address: { status: 'verified', dpv: 'Y' }, phone: { status: 'valid', e164: '+15027134410' } });
      // src/widget/widget.ts and src/web/assets/dashboard.css, built or read on request.
      expect(widget.status).toBe(200);
      expect(await widget.text()).toMatch(/\S{200}/);
      expect(stylesheet.status).toBe(200);
      // The document's version comes from package.json.
      const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
      expect(((await openapi.json()) as { info: { version: string } }).info.version).toBe(version);
    } finally {
      await service.stop();
    }
  }, 120_000);

  it('When a source changes after the build, then the next npm run cli rebuilds and runs the change', async () => {
    // A copy of the project (its packages linked) so that this edit reaches no other test; built where it lies.
    const copy = path.join(scratch, 'project');
    for (const entry of ['src', 'connectors', 'migrations', 'scripts', 'package.json', 'tsconfig.json']) {
      fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
    }
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
    const help = async () => (await run(process.execPath, ['scripts/start.mjs', 'cli', '--help'], { cwd: copy })).stdout;

    const first = await help();
    const built = fs.statSync(path.join(copy, 'dist/cli.js')).mtimeMs;
    const again = await help();
    const helpSource = path.join(copy, 'src/cli/help.ts');
    fs.writeFileSync(helpSource, fs.readFileSync(helpSource, 'utf8').replace('Commands:', 'Commands (edited):'));
    const edited = await help();

    expect(first).toMatch(/^Commands:$/m);
    expect(again).toBe(first);
    expect(fs.statSync(path.join(copy, 'dist/cli.js')).mtimeMs).toBeGreaterThan(built);
    expect(edited).toMatch(/^Commands \(edited\):$/m);
  }, 60_000);
});
