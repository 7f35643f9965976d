import { afterEach, describe, expect, it, vi } from 'vitest';
import { binary, prerequisites } from './prerequisites.js';

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
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    expect(prerequisites('two instances behind nginx', present, missing)).toBe(false);

    expect(warn).toHaveBeenCalledWith(
      'SKIPPED two instances behind nginx: /nonexistent/bin/nginx is missing (apt-get install nginx-light)',
    );
  });

  it.each(['true', '1'])('When something is missing on CI (CI=%s), then the run fails instead of skipping', (ci) => {
    vi.stubEnv('CI', ci);
    expect(() => prerequisites('two instances behind nginx', missing)).toThrow(
      /two instances behind nginx: \/nonexistent\/bin\/nginx is missing .*fails the run/,
    );
  });
});
