/**
 * What a suite needs from the machine beyond Node: a PostgreSQL server, nginx, redis-server, Chromium. Here a missing
 * one skips the suite and says so, naming what is missing and how to get it; on CI (CI set, as .ci/run sets it, which
 * installs them all) a missing one fails the run instead: a suite is never skipped silently, and never on CI.
 *
 *     describe.runIf(prerequisites('two instances behind nginx', POSTGRES_SERVER, binary(NGINX, '…')))('…', () => …);
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RUN_MARKER_PREFIX } from './test-run.js';

export interface Prerequisite {
  /** What is needed, as a reader would look for it (a file, a variable). */
  what: string;
  present: boolean;
  /** How to get it. */
  howToGet: string;
}

export const onCi = (): boolean => !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

/** The PostgreSQL server the storage tests create their databases on. */
export const POSTGRES_SERVER: Prerequisite = {
  what: 'TEST_DATABASE_URL_POSTGRES (a PostgreSQL server)',
  present: !!process.env.TEST_DATABASE_URL_POSTGRES,
  howToGet: 'set it to a server whose user may create databases; .ci/run starts one',
};

export const binary = (file: string, howToGet: string): Prerequisite => ({ what: file, present: fs.existsSync(file), howToGet });

/**
 * Whether `suite` runs: true when every prerequisite is present. Otherwise it prints why the suite is skipped, or on CI
 * throws (the test file fails).
 */
export function prerequisites(suite: string, ...needs: Prerequisite[]): boolean {
  const missing = needs.filter((n) => !n.present);
  if (!missing.length) return true;
  const why = missing.map((n) => `${n.what} is missing (${n.howToGet})`).join('; ');
  if (onCi()) throw new Error(`${suite}: ${why}. On CI a missing prerequisite fails the run.`);
  if (firstTimeThisRun(`SKIPPED ${suite}: ${why}`)) console.warn(`SKIPPED ${suite}: ${why}`);
  return false;
}

/**
 * Whether `line` is told for the first time in this test run: each test file runs in a worker of its own, and 61 of
 * them need PostgreSQL (issue 52.8: the same line 61 times). The first worker to make the run's marker for the line
 * (an exclusive create in the OS's temporary folder) tells it; the run's global setup (./test-run.ts) names the run and
 * deletes its markers. Outside a named run, always.
 */
function firstTimeThisRun(line: string): boolean {
  const run = process.env.CV_TEST_RUN;
  if (!run) return true;
  const marker = path.join(os.tmpdir(), `${RUN_MARKER_PREFIX}${run}-${createHash('sha256').update(line).digest('hex').slice(0, 16)}`);
  try {
    fs.writeFileSync(marker, '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}
