/**
 * Password hashing with scrypt from node:crypto (RFC 7914): memory-hard, built into Node, nothing to compile or
 * download. A stored hash names its parameters (`scrypt$logN$r$p$salt$hash`), so the cost can be raised later and
 * old hashes still verify. Parameters: OWASP's Password Storage Cheat Sheet (N = 2^15 or more, r = 8, p = 1).
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/** NIST SP 800-63B §5.1.1.2: at least 8 characters (we ask 10), long passphrases allowed, no composition rules. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** The passwords every list of leaked passwords starts with: refused whatever their length. */
const COMMON = new Set([
  '1234567890', '0123456789', 'qwertyuiop', 'password12', 'password123', 'password1234', 'iloveyou12', 'abcdefghij',
  '1q2w3e4r5t', 'qwerty1234', 'passw0rd12', 'letmein123', 'welcome123', 'changeme12', 'administrator', 'aaaaaaaaaa',
]);

const memoryFor = (logN: number) => 128 * BLOCK_SIZE * 2 ** logN * 2;

export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { N: 2 ** logN, r: BLOCK_SIZE, p: PARALLELISM, maxmem: memoryFor(logN) });
  return ['scrypt', logN, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether the password matches the stored hash; compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 20) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await scrypt(password.normalize('NFKC'), salt, expected.length, { N: 2 ** logN, r, p, maxmem: 128 * r * 2 ** logN * 2 });
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A stand-in hash to verify against when the e-mail is unknown, so that the answer takes as long either way. */
export async function decoyHash(logN: number): Promise<string> {
  return hashPassword(crypto.randomBytes(16).toString('hex'), logN);
}

/** Why a new password is refused, or null. */
export function passwordWeakness(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `at most ${PASSWORD_MAX} characters`;
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || new Set(lower).size < 4) return 'too easy to guess';
  if (lower === email.toLowerCase() || lower === email.split('@')[0].toLowerCase()) return 'must not be your e-mail address';
  return null;
}
