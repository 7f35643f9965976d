/**
 * autocannon in a process of its own: a load whose client does not share the event loop (nor the core) of the
 * benchmark that runs it, so that the benchmark's own work (building an index, opening one) does not show in the
 * latencies it measures.
 *
 *     const result = await autocannonInChild({ url, connections: 16, duration: 10, requests });
 *
 * Run as a script, this file reads the options (JSON) from stdin and prints the result (JSON) on stdout.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { autocannon, type AutocannonOptions, type AutocannonResult } from './autocannon.js';

export function autocannonInChild(options: AutocannonOptions): Promise<AutocannonResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stdin.end(JSON.stringify(options));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load client exited ${code}`));
      try {
        resolve(JSON.parse(out) as AutocannonResult);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let text = '';
  process.stdin.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => {
    autocannon(JSON.parse(text) as AutocannonOptions).then((r) => {
      const { duration, errors, timeouts, non2xx, latency, requests } = r;
      process.stdout.write(JSON.stringify({ duration, errors, timeouts, non2xx, '2xx': r['2xx'], latency, requests }));
    }, (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
  });
}
