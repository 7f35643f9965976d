import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkPlatformUrl, UnsafeUrl } from '../../src/sync/platform-url.js';
import { keyIdOf, parseSecretKey, SecretBox, SecretKeyMissing } from '../../src/sync/secrets.js';

describe('credentials at rest', () => {
  const key = crypto.randomBytes(32);
  const credentials = { client_id: 'abc', client_secret: 's3cr3t-value' };

  it('When credentials are sealed, then the ciphertext does not hold them and only the key opens them', () => {
    const box = new SecretBox(key);
    const sealed = box.seal(credentials);

    expect(sealed.keyId).toBe(keyIdOf(key));
    expect(Buffer.from(sealed.secret, 'base64url').toString('latin1')).not.toContain('s3cr3t');
    expect(box.open(sealed)).toEqual(credentials);
    expect(box.seal(credentials).secret).not.toBe(sealed.secret); // a fresh nonce each time
    expect(() => new SecretBox(crypto.randomBytes(32)).open(sealed)).toThrow(SecretKeyMissing);
  });

  it('When the ciphertext is tampered with, then opening fails (GCM authentication)', () => {
    const box = new SecretBox(key);
    const sealed = box.seal(credentials);
    const raw = Buffer.from(sealed.secret, 'base64url');
    raw[raw.length - 1] ^= 1;

    expect(() => box.open({ ...sealed, secret: raw.toString('base64url') })).toThrow();
  });

  it('When the key is rotated, then the previous key still opens old secrets, which are stale until sealed again', () => {
    const old = new SecretBox(key);
    const sealed = old.seal(credentials);
    const rotated = new SecretBox(crypto.randomBytes(32), [key]);

    expect(rotated.open(sealed)).toEqual(credentials);
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal(credentials))).toBe(false);
  });

  it('When no key is configured, then sealing is refused with a clear error', () => {
    expect(() => new SecretBox(null).seal(credentials)).toThrow(/CONNECTOR_SECRET_KEY/);
  });

  it.each([
    ['a'.repeat(64), 32],
    [crypto.randomBytes(32).toString('base64'), 32],
    ['too short', null],
    ['ab'.repeat(16), null],
  ])('When the key is written %j, then it is read as %s bytes', (text, bytes) => {
    expect(parseSecretKey(text)?.length ?? null).toBe(bytes);
  });
});

describe('the URLs a connector may call (SSRF)', () => {
  it.each([
    'http://acme.my.salesforce.com',
    'https://127.0.0.1',
    'https://10.1.2.3/services',
    'https://[::1]',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost:8443',
    'https://metadata.google.internal',
    'https://user:pass@acme.my.salesforce.com',
    'ftp://acme.example',
    'not a url',
  ])('When a connector names %s, then it is refused', async (url) => {
    await expect(checkPlatformUrl(url, false)).rejects.toBeInstanceOf(UnsafeUrl);
  });

  it('When the URL is https on a public address, then it is accepted', async () => {
    await expect(checkPlatformUrl('https://8.8.8.8', false)).resolves.toBeUndefined();
  });

  it('When CONNECTOR_ALLOW_PRIVATE is on (tests), then loopback and http are accepted', async () => {
    await expect(checkPlatformUrl('http://127.0.0.1:1234', true)).resolves.toBeUndefined();
  });
});
