/**
 * The one way tests, benches and the client libraries' suites start the real service quietly with funded accounts:
 * loopback on a free port, logging, rate limiting and network checks off, no free grant, its database (a throw-away
 * SQLite file unless given one) and batch folder in a temporary folder that `close()` deletes.
 *
 * In process (vitest, bench:stages, bench:connector, clients/testing):
 *
 *     const service = await startQuietService({ accounts: [{ name: 'bench', credits: 1_000_000 }] });
 *     service.funded[0].apiKey; await service.close();
 *
 * As a child process (bench:batch, bench:validate): `spawnQuietService(options)` runs this file
 *
 *     node --import tsx test/support/quiet-service.ts [--database URL] [--account NAME=CREDITS]... [--set KEY=VALUE]...
 *
 * which prints one JSON line `{"url", "api_key", "account_id", "accounts": [{"name", "account_id", "api_key"}], "pid",
 * "batch_dir"}` once it serves (`api_key` is the first account's) and stops, deleting its folder, on SIGTERM, SIGINT or
 * when stdin closes (the parent is gone), as test/support/service-child.ts has every benchmark child speak.
 *
 * As `npm start` runs it (the hostile-upload test, bench:memory): `spawnCompiledService(options)`, the compiled entry
 * with its default settings, its accounts made by the compiled CLI.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { serveUntilParentGoes, spawnChild, startChild, stopChild, type StartedChild } from './service-child.js';

const SCRIPT = path.relative(path.resolve(import.meta.dirname, '../..'), fileURLToPath(import.meta.url));

/** The settings (environment variable names, as in .env.example) that make the service quiet. */
export const QUIET_ENV = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
  EMAIL_NETWORK_CHECKS: 'false',
  // The suites' addresses are at example.com and `.test` names, which their local DNS servers serve (RFC 6761 §6.2);
  // the tests of the production rule (never a mailbox) set it to 'false'.
  EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'true',
  VALIDATION_BUDGET_MS: '1500',
  FREE_CREDITS: '0',
  SHUTDOWN_GRACE_MS: '2000',
};

export interface QuietServiceOptions {
  /** DATABASE_URL: `sqlite:<file>` or a PostgreSQL URL. Default: a new SQLite file in the service's folder. */
  database?: string;
  /** Accounts created at start, each holding `credits` usable credits. Default: none. */
  accounts?: { name: string; credits: number }[];
  /** Settings over the quiet ones (EMAIL_NETWORK_CHECKS: 'true' turns the network checks back on). */
  env?: Record<string, string>;
}

export interface FundedAccount {
  name: string;
  accountId: string;
  apiKey: string;
  keyId: string;
}

export interface QuietService extends RunningService {
  config: Config;
  /** The accounts of `options.accounts`, in their order. */
  funded: FundedAccount[];
  /** The temporary folder (deleted by `close()`) and the batch folder (in it unless BATCH_DIR was given). */
  dir: string;
  batchDir: string;
}

/** A new account holding `credits` usable credits, and its API key. */
export async function fundAccount(service: Pick<RunningService, 'accounts'>, name: string, credits: number): Promise<FundedAccount> {
  const created = await service.accounts.create(name);
  if (credits > 0) await service.accounts.grantCredits(created.account_id, credits);
  return { name, accountId: created.account_id, apiKey: created.api_key, keyId: created.key_id };
}

/** The real service in this process, quiet, on a free loopback port, with the accounts asked for. */
export async function startQuietService(options: QuietServiceOptions = {}): Promise<QuietService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-quiet-'));
  let service: RunningService | undefined;
  try {
    const config = loadConfig({
      ...QUIET_ENV,
      DATABASE_URL: options.database ?? `sqlite:${path.join(dir, 'service.sqlite')}`,
      BATCH_DIR: path.join(dir, 'batches'),
      ...options.env,
    });
    service = await startService(config, createLogger('silent'));
    const funded: FundedAccount[] = [];
    for (const { name, credits } of options.accounts ?? []) funded.push(await fundAccount(service, name, credits));
    const running = service;
    return {
      ...running, config, funded, dir, batchDir: config.batch.dir,
      async close() {
        try {
          await running.close();
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await service?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The child-process face

/** The command-line arguments of this file for `options`. */
export function quietServiceArgs(options: QuietServiceOptions = {}): string[] {
  return [
    ...(options.database ? ['--database', options.database] : []),
    ...(options.accounts ?? []).flatMap((a) => ['--account', `${a.name}=${a.credits}`]),
    ...Object.entries(options.env ?? {}).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
  ];
}

function optionsOfArgs(args: string[]): QuietServiceOptions {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: 'string' },
      account: { type: 'string', multiple: true, default: [] },
      set: { type: 'string', multiple: true, default: [] },
    },
  });
  const split = (pair: string, flag: string) => {
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw new Error(`${flag} ${pair}: expected NAME=VALUE`);
    return [pair.slice(0, at), pair.slice(at + 1)] as const;
  };
  return {
    database: values.database,
    accounts: values.account.map((pair) => {
      const [name, credits] = split(pair, '--account');
      if (!/^\d+$/.test(credits)) throw new Error(`--account ${pair}: the credits must be a whole number`);
      return { name, credits: Number(credits) };
    }),
    env: Object.fromEntries(values.set.map((pair) => split(pair, '--set'))),
  };
}

export interface QuietServiceChild extends StartedChild {
  url: string;
  pid: number;
  batchDir: string;
  funded: Omit<FundedAccount, 'keyId'>[];
  /** Stops it (SIGTERM, then SIGKILL after 15 s) and deletes its folder. */
  stop(): Promise<void>;
}

/** The quiet service as a child process of its own (its resident set and CPU time are its own, SIGKILL reaches it). */
export async function spawnQuietService(options: QuietServiceOptions = {}): Promise<QuietServiceChild> {
  const started = await startChild('the service', SCRIPT, { args: quietServiceArgs(options) });
  const first = started.first as { url: string; pid: number; batch_dir: string; accounts: { name: string; account_id: string; api_key: string }[] };
  return {
    ...started, url: first.url, pid: first.pid, batchDir: first.batch_dir,
    funded: first.accounts.map((a) => ({ name: a.name, accountId: a.account_id, apiKey: a.api_key })),
    stop: () => stopChild(started), // the child deletes its own folder
  };
}

/**
 * The service as `npm start` runs it: the compiled entry (`node scripts/start.mjs main`, built first if a source
 * changed) in its own process, every setting at its default but a throw-away SQLite file and batch folder, loopback
 * and network checks off (`options.env` adds or overrides; `options.database` is not for it). Its accounts are made
 * beforehand by the compiled CLI (`accounts create`, its free grant the credits asked for). Ready once it logs
 * `listening`.
 */
export async function spawnCompiledService(options: Omit<QuietServiceOptions, 'database'> = {}): Promise<QuietServiceChild> {
  const root = path.resolve(import.meta.dirname, '../..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-compiled-'));
  const settings = {
    NODE_ENV: 'production', DATABASE_URL: `sqlite:${path.join(dir, 'service.sqlite')}`, BATCH_DIR: path.join(dir, 'batches'),
    HOST: '127.0.0.1', PORT: '0', EMAIL_NETWORK_CHECKS: 'false', ...options.env,
  };
  try {
    const funded = (options.accounts ?? []).map(({ name, credits }) => {
      const out = execFileSync(process.execPath, ['scripts/start.mjs', 'cli', 'accounts', 'create', '--name', name], {
        cwd: root, env: { ...process.env, ...settings, FREE_CREDITS: String(credits) }, encoding: 'utf8',
      });
      const created = JSON.parse(out) as { account_id: string; api_key: string };
      return { name, accountId: created.account_id, apiKey: created.api_key };
    });
    const started = await spawnChild('the compiled service', ['scripts/start.mjs', 'main'], settings, (line) => {
      let entry: { msg?: string; url?: string } = {};
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch { /* not a log line */ }
      return entry.msg === 'listening' && entry.url ? entry : undefined;
    });
    return {
      ...started, url: started.first.url as string, pid: started.child.pid!, batchDir: settings.BATCH_DIR, funded,
      async stop() {
        try {
          await stopChild(started);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function main(): Promise<void> {
  const service = await startQuietService(optionsOfArgs(process.argv.slice(2)));
  const accounts = service.funded.map((a) => ({ name: a.name, account_id: a.accountId, api_key: a.apiKey }));
  serveUntilParentGoes({
    url: service.url, api_key: accounts[0]?.api_key, account_id: accounts[0]?.account_id, accounts,
    pid: process.pid, batch_dir: service.batchDir,
  }, () => service.close());
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
