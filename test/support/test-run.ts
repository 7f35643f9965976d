/**
 * Vitest global setup: names this test run (CV_TEST_RUN, which every test file's worker inherits), so that a message
 * many files would print, a suite skipped for want of PostgreSQL (test/support/prerequisites.ts), is printed once per
 * run; and deletes the run's markers at its end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The marker files of a run: `<prefix><run>-…` in the OS's temporary folder. */
export const RUN_MARKER_PREFIX = 'cv-test-run-';

export default function nameTheRun(): () => void {
  const run = `${process.pid}-${Date.now().toString(36)}`;
  process.env.CV_TEST_RUN = run;
  return () => {
    for (const file of fs.readdirSync(os.tmpdir())) {
      if (file.startsWith(`${RUN_MARKER_PREFIX}${run}-`)) fs.rmSync(path.join(os.tmpdir(), file), { force: true });
    }
  };
}
