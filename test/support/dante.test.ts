/**
 * Where the egress suites keep the password of the system account Dante checks (test/support/dante.ts): the suites run
 * as root in the shared /tmp, so what another user planted there must never reach chpasswd or be written through.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { privateFolder, sharedPassword } from './dante.js';

const made: string[] = [];
const scratch = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-dante-secret-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Dante account password', () => {
  it('When nothing is there yet, then the folder is made private and every later call reads the same 24 hex digits', () => {
    const dir = path.join(scratch(), 'secret');

    const first = sharedPassword(dir);
    const again = sharedPassword(dir);

    expect(first.made).toBe(true);
    expect(first.password).toMatch(/^[0-9a-f]{24}$/);
    expect(again).toEqual({ password: first.password, made: false });
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('When the folder is one others may write, then it is refused', () => {
    const dir = path.join(scratch(), 'secret');
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);

    expect(() => sharedPassword(dir)).toThrow(/not a folder of this user that only it may use/);
  });

  it('When a symlink stands at the folder\'s place, then it is refused and nothing is written where it points', () => {
    const base = scratch();
    const target = path.join(base, 'elsewhere');
    fs.mkdirSync(target, { mode: 0o700 });
    fs.symlinkSync(target, path.join(base, 'secret'));

    expect(() => sharedPassword(path.join(base, 'secret'))).toThrow(/not a folder of this user/);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('When the password file holds more than a password (a second chpasswd line), then it is refused', () => {
    const dir = privateFolder(path.join(scratch(), 'secret'));
    fs.writeFileSync(path.join(dir, 'password'), 'aaaaaaaaaaaaaaaaaaaaaaaa\nroot:chosen', { mode: 0o600 });

    expect(() => sharedPassword(dir)).toThrow(/holds no password this suite made/);
  });
});
