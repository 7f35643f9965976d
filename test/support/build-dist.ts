/**
 * Vitest global setup: builds dist/ once per test run (scripts/build.mjs), so that tests which start the service or
 * the command line as child processes run the compiled entry points (`node scripts/start.mjs main|cli`), as npm does.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function buildDist(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
