/**
 * The machinery of the fleet tests and of `npm run bench:fleet`: service instances as child processes (compiled, as
 * `npm start` runs them; SIGTERM and SIGKILL reach them), nginx-light in front of them, a private PostgreSQL cluster that a test
 * may stop, and a redis-server, each on a free loopback port and each stopped (and its folder deleted) by `close()`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { Database } from '../../src/db/data-source.js';
import { openBilling } from '../../src/service.js';
import { QUIET_ENV } from './quiet-service.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export const NGINX = '/usr/sbin/nginx';
export const REDIS_SERVER = '/usr/bin/redis-server';
/** Debian's PostgreSQL server binaries, newest version first (.ci/run installs them). */
export const POSTGRES_BIN = ((): string | undefined => {
  try {
    const versions = fs.readdirSync('/usr/lib/postgresql').filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
    versions.sort((a, b) => Number(b) - Number(a));
    return versions.length ? `/usr/lib/postgresql/${versions[0]}/bin` : undefined;
  } catch {
    return undefined;
  }
})();

/** A suite's prerequisite (test/support/prerequisites.ts): the server programs that startPrivatePostgres runs. */
export const POSTGRES_BINARIES = {
  what: 'PostgreSQL\'s server programs (/usr/lib/postgresql/*/bin/initdb)', present: POSTGRES_BIN !== undefined,
  howToGet: 'apt-get install postgresql; .ci/run installs it',
};

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function listening(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms until it gives a value; throws naming `what` after `timeoutMs` (or what `check` throws). */
export async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function waitExit(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Service instances

export interface Instance {
  url: string;
  port: number;
  child: ChildProcess;
  /** The last lines the instance wrote (stdout and stderr), for a failure's message. */
  output(): string;
  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * The service as a child process on `port` (a new free one by default), ready once its /readyz answers 200: compiled,
 * as `npm start` runs it (scripts/start.mjs builds dist/ if stale and runs it in its own process, which SIGKILL reaches).
 */
export async function startInstance(env: Record<string, string>, port?: number): Promise<Instance> {
  const p = port ?? await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs', 'main'], {
    cwd: root,
    env: { ...process.env, ...QUIET_ENV, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (d: Buffer) => { tail = (tail + d.toString('utf8')).slice(-6_000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${p}`;
  const instance: Instance = {
    url, port: p, child, output: () => tail,
    async stop(graceMs = 20_000) {
      if (!exited(child)) child.kill('SIGTERM');
      await waitExit(child, graceMs);
    },
    async kill() {
      if (!exited(child)) child.kill('SIGKILL');
      await waitExit(child, 5_000);
    },
  };
  try {
    await until(`the instance on port ${p} to be ready`, 60_000, async () => {
      if (exited(child)) throw new Error(`the instance exited (${child.signalCode ?? child.exitCode}) before it was ready:\n${tail}`);
      const res = await fetch(`${url}/readyz`).catch(() => undefined);
      return res?.status === 200 ? true : undefined;
    });
  } catch (err) {
    await instance.kill();
    throw err;
  }
  return instance;
}

/** A new account holding `credits`, made directly in the database (no instance needed); its API key. */
export async function newAccount(databaseUrl: string, credits: number): Promise<{ accountId: string; apiKey: string }> {
  const db = await Database.open(databaseUrl);
  try {
    const { accounts } = await openBilling(loadConfig({ ...QUIET_ENV, DATABASE_URL: databaseUrl }), db);
    const created = await accounts.create('fleet');
    if (credits > 0) await accounts.grantCredits(created.account_id, credits);
    return { accountId: created.account_id, apiKey: created.api_key };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// nginx

/**
 * The proxy settings of docs/operations.md's example that the tests rely on. A POST is sent to the next instance only
 * with `non_idempotent`: nginx would otherwise answer 502 when an instance closes a kept-alive connection just as
 * nginx writes a request on it (a restart's race). The service makes that safe: it answers a request it will not do
 * with 503 before charging anything, and finishes every request it took before it exits.
 */
export const NGINX_PROXY_SETTINGS = `
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
      proxy_next_upstream_tries 3;
      proxy_next_upstream_timeout 10s;
      proxy_connect_timeout 2s;`;

export interface Nginx {
  url: string;
  pid: number;
  /** nginx's error log (upstream failures and retries are logged there as warnings). */
  errors(): string;
  close(): Promise<void>;
}

export async function startNginx(upstreams: string[]): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  const log = path.join(dir, 'error.log');
  fs.writeFileSync(conf, `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${log} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream contact_validator {
    ${upstreams.map((u) => `server ${u} max_fails=3 fail_timeout=2s;`).join('\n    ')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://contact_validator;${NGINX_PROXY_SETTINGS}
    }
  }
}
`);
  const child = spawn(NGINX, ['-c', conf, '-p', dir, '-e', log], { stdio: 'ignore' });
  const errors = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');
  const close = async () => {
    if (!exited(child)) child.kill('SIGTERM');
    await waitExit(child, 5_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until('nginx to listen', 10_000, async () => {
      if (exited(child)) throw new Error(`nginx exited: ${errors()}`);
      return (await listening(port)) ? true : undefined;
    });
  } catch (err) {
    const log = errors();
    await close();
    throw new Error(`${(err as Error).message}\n${log}`);
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, errors, close };
}

// ---------------------------------------------------------------------------------------------------------------------
// A private PostgreSQL cluster, for tests that stop it (never the shared one of TEST_DATABASE_URL_POSTGRES)

export interface PrivatePostgres {
  /** DATABASE_URL of its database `contact_validator`. */
  url: string;
  /** The server's process id (the postmaster; its backends are its children). */
  pid(): number;
  /** `pg_ctl stop -m MODE`. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  close(): Promise<void>;
  /** `fsync=on, synchronous_commit=on` as the server reports them, for a benchmark's table. */
  settings(): Promise<string>;
}

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb refuses root), else as ourselves. */
async function asPostgres(bin: string, args: string[]): Promise<void> {
  const command = path.join(POSTGRES_BIN!, bin);
  if (process.getuid?.() === 0) {
    const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    await run('su', ['postgres', '-s', '/bin/sh', '-c', quoted]);
  } else {
    await run(command, args);
  }
}

/**
 * `durable: false` (the tests' default) turns fsync off to spare the disk; a benchmark passes `durable: true` and gets
 * PostgreSQL's own defaults (fsync and synchronous_commit on), the commit cost production pays. `settings`: more
 * server settings (`-c name=value`), such as `shared_preload_libraries: 'pg_stat_statements'` for a profile.
 */
export async function startPrivatePostgres(
  options: { durable?: boolean; settings?: Record<string, string> } = {},
): Promise<PrivatePostgres> {
  if (!POSTGRES_BIN) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (.ci/run installs them)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const start = () => asPostgres('pg_ctl', [
    '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '30',
    '-o', [
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}${options.durable ? '' : ' -c fsync=off'} -c max_connections=100`,
      ...Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' '), 'start',
  ]);
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  };
  const close = async () => {
    await stop('immediate').catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await start();
    await asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'contact_validator']);
  } catch (err) {
    const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
    await close();
    throw new Error(`private PostgreSQL did not start: ${(err as Error).message}\n${log}`);
  }
  const pid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const url = `postgres://postgres@127.0.0.1:${port}/contact_validator`;
  const settings = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; setting: string }>(
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit') ORDER BY name");
      return rows.map((r) => `${r.name}=${r.setting}`).join(', ');
    } finally {
      await client.end();
    }
  };
  return { url, pid, stop, start, close, settings };
}

// ---------------------------------------------------------------------------------------------------------------------
// redis-server

export interface Redis {
  url: string;
  close(): Promise<void>;
}

/** A redis-server on a free loopback port, nothing written to disk. */
export async function startRedis(): Promise<Redis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-redis-'));
  const port = await freePort();
  const child = spawn(REDIS_SERVER, [
    '--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out = (out + d.toString('utf8')).slice(-4_000); });
  child.stderr!.on('data', (d: Buffer) => { out = (out + d.toString('utf8')).slice(-4_000); });
  const close = async () => {
    if (!exited(child)) child.kill('SIGTERM');
    await waitExit(child, 5_000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until('redis-server to listen', 10_000, async () => {
      if (exited(child)) throw new Error(`redis-server exited: ${out}`);
      return (await listening(port)) ? true : undefined;
    });
  } catch (err) {
    await close();
    throw new Error(`${(err as Error).message}\n${out}`);
  }
  return { url: `redis://127.0.0.1:${port}`, close };
}
