/**
 * The service as a newcomer and a process manager start and stop it (issue 52.2, 52.3): `npm start` (and the starter it
 * runs, scripts/start.mjs) stops on SIGTERM, SIGINT or SIGHUP sent to the pid that was started, port closed and no
 * process left, within SHUTDOWN_GRACE_MS; and `.env` in the working directory (or ENV_FILE) is read at start by the
 * service and the command line, the environment winning over it. Each service here is a real child process on a
 * throw-away SQLite database in a temporary folder.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, sleep, until } from '../support/fleet.js';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-start-stop-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const GRACE_MS = 2_000;

/** Only what a shell would hand on: none of the test runner's settings, so that a .env's PORT is not already set. */
function environment(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir(), EMAIL_NETWORK_CHECKS: 'false', ...extra };
}

/** A folder of its own for one service: its database and batch files (by the defaults' relative paths) inside. */
function folder(name: string, dotEnv?: string): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  if (dotEnv !== undefined) fs.writeFileSync(path.join(dir, '.env'), dotEnv);
  return dir;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** The process and its descendants once it served (npm's script shell and the starter, when npm started it). */
  pids: number[];
}

/** Starts `command` and waits for the service's "listening" line; its URL. */
async function start(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const url = await until('the service to listen', 60_000, async () => {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before listening:\n${out}`);
    const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
    return line ? (JSON.parse(line) as { url: string }).url : undefined;
  });
  return { child, url, output: () => out, pids: tree(child.pid!) };
}

/** The process and its descendants, from /proc (Linux): what must be gone once it is stopped. */
function tree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++) for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  return found;
}

/** Running (not gone, not a zombie waiting for a parent to reap it). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

/** Sends `signal` to the started pid only; how long until its port refuses and none of its processes is left. */
async function stopWith(started: Started, signal: NodeJS.Signals): Promise<{ ms: number; left: number[] }> {
  const { pids } = started;
  const sent = performance.now();
  process.kill(started.child.pid!, signal);
  try {
    await until(`the service to stop after ${signal}`, GRACE_MS + 8_000, async () =>
      (!pids.some(alive) && !(await accepts(started.url))) || undefined);
  } catch { /* told by `left` */ }
  const left = pids.filter(alive);
  return { ms: performance.now() - sent, left };
}

/** Whatever a failed test leaves running (orphans included: they are no longer below the pid started), by pid. */
function killTree(started: Started | undefined): void {
  if (!started) return;
  for (const pid of new Set([...started.pids, ...tree(started.child.pid!)])) if (alive(pid)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
}

describe('stopping the service', () => {
  const service = (name: string) => environment({
    PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: String(GRACE_MS),
    DATABASE_URL: `sqlite:${path.join(folder(name), 'service.sqlite')}`, BATCH_DIR: path.join(scratch, name, 'batches'),
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('When npm start\'s pid gets %s, then the service drains and exits within the grace, and nothing is left serving', async (signal) => {
    // Arrange: npm start as a newcomer types it (npm, then the starter it runs)
    let started: Started | undefined;
    try {
      started = await start('npm', ['start'], root, service(`npm-${signal}`));
      expect(started.pids.length, 'npm and the service below it').toBeGreaterThanOrEqual(2);

      // Act
      const { ms, left } = await stopWith(started, signal);
      await sleep(100);

      // Assert: the port is closed, no process of the tree remains, and the service said it stopped (a drain, not a kill)
      expect(left, `processes left after ${signal} to npm`).toEqual([]);
      expect(await accepts(started.url)).toBe(false);
      expect(ms).toBeLessThan(GRACE_MS + 5_000);
      expect(started.output()).toContain('"msg":"stopped"');
    } finally {
      killTree(started);
    }
  }, 90_000);

  it.each(['SIGTERM', 'SIGHUP'] as const)('When the starter (node scripts/start.mjs main) gets %s, then it drains and exits 0', async (signal) => {
    let started: Started | undefined;
    try {
      started = await start(process.execPath, ['scripts/start.mjs', 'main'], root, service(`starter-${signal}`));
      const exited = new Promise<number | null>((resolve) => started!.child.once('exit', (code) => resolve(code)));

      const { left } = await stopWith(started, signal);

      expect(left).toEqual([]);
      expect(await exited).toBe(0);
      expect(started.output()).toContain('"msg":"stopped"');
    } finally {
      killTree(started);
    }
  }, 90_000);
});

describe('settings in .env', () => {
  const starter = path.join(root, 'scripts/start.mjs');

  it('When .env in the working directory sets PORT and HOST, then the service listens there', async () => {
    const port = await freePort();
    const dir = folder('dotenv-port', `# copied from .env.example\nPORT=${port}\nHOST=127.0.0.1\nSHUTDOWN_GRACE_MS=${GRACE_MS}\n`);
    let started: Started | undefined;
    try {
      started = await start(process.execPath, [starter, 'main'], dir, environment({}));

      expect(started.url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      // The database by the default's relative path, in the working directory.
      expect(fs.existsSync(path.join(dir, 'data/contact-validator.sqlite'))).toBe(true);
      expect(started.output()).toMatch(/"env_file":"[^"]*dotenv-port\/\.env"/);
    } finally {
      if (started) await stopWith(started, 'SIGTERM');
      killTree(started);
    }
  }, 90_000);

  it('When the environment sets PORT too, then the environment wins over .env', async () => {
    const [inFile, inEnvironment] = [await freePort(), await freePort()];
    const dir = folder('dotenv-env-wins', `PORT=${inFile}\nHOST=127.0.0.1\n`);
    let started: Started | undefined;
    try {
      started = await start(process.execPath, [starter, 'main'], dir, environment({ PORT: String(inEnvironment), SHUTDOWN_GRACE_MS: String(GRACE_MS) }));

      expect(started.url).toBe(`http://127.0.0.1:${inEnvironment}`);
      expect(await accepts(`http://127.0.0.1:${inFile}`)).toBe(false);
    } finally {
      if (started) await stopWith(started, 'SIGTERM');
      killTree(started);
    }
  }, 90_000);

  it('When ENV_FILE names another file, then that one is read; when it names no file, the service refuses to start, naming it', async () => {
    const port = await freePort();
    const dir = folder('env-file');
    fs.writeFileSync(path.join(dir, 'staging.env'), `PORT=${port}\nHOST=127.0.0.1\nSHUTDOWN_GRACE_MS=${GRACE_MS}\n`);
    let started: Started | undefined;
    try {
      started = await start(process.execPath, [starter, 'main'], dir, environment({ ENV_FILE: 'staging.env' }));
      const missing = await promisify(execFile)(process.execPath, [starter, 'main'], { cwd: dir, env: environment({ ENV_FILE: 'nope.env' }) })
        .then(() => null, (err: { code: number; stderr: string }) => err);

      expect(started.url).toBe(`http://127.0.0.1:${port}`);
      expect(missing?.code).toBe(2);
      expect(missing?.stderr).toMatch(/ENV_FILE: cannot read .*nope\.env \(ENOENT\)/);
    } finally {
      if (started) await stopWith(started, 'SIGTERM');
      killTree(started);
    }
  }, 90_000);

  it('When .env sets DATABASE_URL, then the command line works on that database', async () => {
    const dir = folder('dotenv-cli', 'DATABASE_URL=sqlite:./from-dotenv.sqlite\n');

    const { stdout } = await promisify(execFile)(path.join(root, 'bin/contact-validator.mjs'), ['accounts', 'create', '--name', 'Dotenv'], { cwd: dir, env: environment({}) });

    expect(JSON.parse(stdout)).toMatchObject({ account_id: expect.stringMatching(/^acct_/) });
    expect(fs.existsSync(path.join(dir, 'from-dotenv.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
  }, 60_000);
});
