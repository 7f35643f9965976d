import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { binary, prerequisites } from './prerequisites.js';
import { RUN_MARKER_PREFIX } from './test-run.js';

const present = binary(process.execPath, 'it is this Node');
const missing = binary('/nonexistent/bin/nginx', 'apt-get install nginx-light');

describe('a suite and what it needs from the machine', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('When everything needed is here, then the suite runs and nothing is printed', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(prerequisites('a suite', present)).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('When something is missing outside CI, then the suite is skipped and the reason printed, naming it and how to get it', () => {
    vi.stubEnv('CI', '');
    vi.stubEnv('CV_TEST_RUN', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    expect(prerequisites('two instances behind nginx', present, missing)).toBe(false);

    expect(warn).toHaveBeenCalledWith(
      'SKIPPED two instances behind nginx: /nonexistent/bin/nginx is missing (apt-get install nginx-light)',
    );
  });

  it('When many files of one run skip for the same reason, then the reason is printed once', () => {
    // Arrange: one run (as test/support/test-run.ts names it), its files' workers each asking
    vi.stubEnv('CI', '');
    vi.stubEnv('CV_TEST_RUN', `unit-${process.pid}-${Date.now()}`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const other = binary('/nonexistent/bin/redis-server', 'apt-get install redis-server');

    // Act
    const answers = [1, 2, 3].map(() => prerequisites('two instances behind nginx', missing));
    const another = prerequisites('the Redis suite', other);

    // Assert: skipped each time, told once, and another reason told too
    expect([...answers, another]).toEqual([false, false, false, false]);
    expect(warn.mock.calls).toEqual([
      ['SKIPPED two instances behind nginx: /nonexistent/bin/nginx is missing (apt-get install nginx-light)'],
      ['SKIPPED the Redis suite: /nonexistent/bin/redis-server is missing (apt-get install redis-server)'],
    ]);
    const markers = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`${RUN_MARKER_PREFIX}${process.env.CV_TEST_RUN}-`));
    expect(markers).toHaveLength(2);
    for (const marker of markers) fs.rmSync(path.join(os.tmpdir(), marker));
  });

  it.each(['true', '1'])('When something is missing on CI (CI=%s), then the run fails instead of skipping', (ci) => {
    vi.stubEnv('CI', ci);
    expect(() => prerequisites('two instances behind nginx', missing)).toThrow(
      /two instances behind nginx: \/nonexistent\/bin\/nginx is missing .*fails the run/,
    );
  });
});
