/**
 * A detached git worktree of a revision in a temporary folder, sharing this checkout's node_modules: the baseline of
 * the benches' `--against REV`, so that a change is measured against the code before it in the same run. Removed when
 * the process exits.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { quietServiceArgs, type QuietServiceOptions } from '../test/support/quiet-service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function checkOut(rev: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-against-'));
  execFileSync('git', ['worktree', 'add', '--detach', '--force', dir, rev], { cwd: ROOT, stdio: 'ignore' });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  process.once('exit', () => {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  return dir;
}

/**
 * The benches' service child, here or as it was at `rev`, relative to this checkout, with its arguments, for
 * startChild: test/support/quiet-service.ts with `options`, or in a revision from before it, bench/servers/service.ts
 * (which made its own funded accounts, read the BATCH_* knobs from the environment and took no arguments).
 */
export function serviceChild(options: QuietServiceOptions, rev?: string): { script: string; args: string[] } {
  const dir = rev ? checkOut(rev) : ROOT;
  const quiet = path.join(dir, 'test/support/quiet-service.ts');
  return fs.existsSync(quiet)
    ? { script: path.relative(ROOT, quiet), args: quietServiceArgs(options) }
    : { script: path.relative(ROOT, path.join(dir, 'bench/servers/service.ts')), args: [] };
}

/** The first of `paths` (relative to `dir`) that exists there, as a file URL: a module that moved between revisions. */
export function moduleAt(dir: string, ...paths: string[]): string {
  const found = paths.find((p) => fs.existsSync(path.join(dir, p)));
  if (!found) throw new Error(`none of ${paths.join(', ')} in ${dir}`);
  return pathToFileURL(path.join(dir, found)).href;
}
