/**
 * How the service and the benchmark children speak to the process that starts them: the child prints one JSON line
 * about itself (`{"url", …}`, its URL on 127.0.0.1) on stdout once it serves, and stops on SIGTERM, SIGINT or when its
 * stdin closes (the parent is gone). test/support/quiet-service.ts and bench/servers/*.ts are such children.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHILD_START_TIMEOUT_MS = 60_000;

/**
 * What a child does once it serves: prints `line` as one JSON line on stdout, then runs `stop` and exits normally (so
 * that --cpu-prof writes its profile) on SIGTERM, SIGINT or when stdin closes.
 */
export function serveUntilParentGoes(line: Record<string, unknown>, stop: () => Promise<void>): void {
  let stopping = false;
  const onStop = () => {
    if (stopping) return;
    stopping = true;
    stop().catch(() => undefined).finally(() => process.exit(0));
  };
  process.once('SIGTERM', onStop);
  process.once('SIGINT', onStop);
  process.stdin.once('end', onStop).once('close', onStop).resume();
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** A child whose first stdout line is a JSON object about itself (its URL, its keys…). */
export interface StartedChild {
  child: ChildProcess;
  first: Record<string, unknown>;
  stderr: () => string;
}

/**
 * Starts `script` (relative to the repository) with tsx, NODE_ENV=production, and waits for its first line, which must
 * name its `url` on 127.0.0.1.
 */
export function startChild(
  name: string, script: string, { nodeFlags = [], args = [] }: { nodeFlags?: string[]; args?: string[] } = {},
): Promise<StartedChild> {
  const argv = [...nodeFlags, '--import', 'tsx', path.resolve(ROOT, script), ...args];
  return spawnChild(name, argv, { NODE_ENV: 'production' }, (line) => {
    try {
      const first = JSON.parse(line) as Record<string, unknown>;
      if (typeof first.url !== 'string') throw new Error('no url');
      const host = new URL(first.url).hostname;
      if (host !== '127.0.0.1') throw new Error(`it listens on ${host}, not 127.0.0.1`);
      return first;
    } catch (e) {
      throw new Error(`unexpected first line ${JSON.stringify(line.slice(0, 200))} (${(e as Error).message})`);
    }
  });
}

/**
 * Starts node with `args` (in the repository, `env` over this process's environment) and waits for the first stdout
 * line that `ready` takes: it returns what the line says about the child, undefined to wait for the next line, or
 * throws when the line says the start went wrong.
 */
export function spawnChild(
  name: string, args: string[], env: Record<string, string>, ready: (line: string) => Record<string, unknown> | undefined,
): Promise<StartedChild> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-8_000); });
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start: ${why}${err ? `\n--- its stderr ---\n${err.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no URL within ${CHILD_START_TIMEOUT_MS / 1000} s`), CHILD_START_TIMEOUT_MS);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before printing its URL`));
    child.stdout!.setEncoding('utf8').on('data', function onData(d: string) {
      out += d;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        let first;
        try {
          first = ready(line);
        } catch (e) {
          fail((e as Error).message);
          return;
        }
        if (!first) continue;
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.removeAllListeners('exit');
        clearTimeout(timer);
        resolve({ child, first, stderr: () => err });
        return;
      }
    });
  });
}

/** SIGTERM, then SIGKILL if it has not exited within 15 s. */
export function stopChild(started: { child: ChildProcess }): Promise<void> {
  const { child } = started;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
