/**
 * API key format: `cv_live_` (secret), `cv_test_` (a secret key of test mode, docs/account.md#test-keys) or `cv_pub_`
 * (publishable, docs/account.md#publishable-keys) + 32 random base62 characters + 6 base62 characters of CRC-32 over the rest (the GitHub
 * token scheme): a malformed or mistyped key is refused without touching the database, and a key leaked into a
 * public place can be recognised by scanners. Keys are shown once and stored only as a SHA-256 hash.
 */
import crypto from 'node:crypto';

const PREFIXES = { secret: 'cv_live_', test: 'cv_test_', publishable: 'cv_pub_' } as const;
export type KeyKind = keyof typeof PREFIXES;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^(?:cv_live_|cv_test_|cv_pub_)[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** How much of the random part is kept in clear, to tell keys apart in listings. */
const DISPLAY_RANDOM = 4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of a string of Latin-1 characters (a key is ASCII: its shape is checked first). */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

export interface NewApiKey {
  plaintext: string;
  hash: string;
  displayPrefix: string;
}

export function generateApiKey(kind: KeyKind = 'secret'): NewApiKey {
  const body = PREFIXES[kind] + randomBase62(RANDOM_LENGTH);
  const plaintext = body + base62(crc32(body), CHECKSUM_LENGTH);
  return { plaintext, hash: hashApiKey(plaintext), displayPrefix: plaintext.slice(0, PREFIXES[kind].length + DISPLAY_RANDOM) };
}

/**
 * Shape and checksum only: says nothing about whether the key exists. (The checksum is compared as plain text: it is
 * a function of the characters before it, which the caller sent, so how long the comparison takes tells nothing.)
 */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  return base62(crc32(candidate.slice(0, -CHECKSUM_LENGTH)), CHECKSUM_LENGTH) === candidate.slice(-CHECKSUM_LENGTH);
}

export function hashApiKey(plaintext: string): string {
  return crypto.hash('sha256', plaintext, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
