/**
 * The real service for the integration tests: clients/testing/start-service.ts, run from the repository root, with
 * its fault proxy. It stops when its stdin closes.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RealService {
  /** Through the fault proxy. */
  url: string;
  /** Straight to the service. */
  direct_url: string;
  api_key: string;
  account_id: string;
  control_url: string;
  /** The next `count` requests through the proxy get this fault. */
  fault(fault: '503' | '429' | 'drop_before' | 'drop_after', count?: number): Promise<void>;
  counts(): Promise<{ forwarded: number; faulted: number; pending: number }>;
  stop(): Promise<void>;
}

export async function startRealService(): Promise<RealService> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', 'clients/testing/start-service.ts'], {
    cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    once(child, 'exit').then(([code]) => { throw new Error(`start-service exited (${code}): ${stderr}`); }),
  ]);
  const info = JSON.parse(first) as Omit<RealService, 'fault' | 'counts' | 'stop'>;
  return {
    ...info,
    async fault(fault, count = 1) {
      const res = await fetch(info.control_url, { method: 'POST', body: JSON.stringify({ fault, count }) });
      if (!res.ok) throw new Error(`control: ${res.status}`);
      await res.text();
    },
    async counts() {
      return (await fetch(info.control_url)).json() as Promise<{ forwarded: number; faulted: number; pending: number }>;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
}
