/**
 * Connector credentials at rest: AES-256-GCM (node:crypto) with CONNECTOR_SECRET_KEY, a fresh 96-bit nonce per
 * seal, and the key's id (the first 16 hex digits of its SHA-256) stored beside the ciphertext, so that the key can be
 * rotated: CONNECTOR_SECRET_KEYS_PREVIOUS still opens what older keys sealed, and a secret is sealed again with the
 * current key whenever it is next saved.
 */
import crypto from 'node:crypto';

export interface Sealed {
  /** base64url of nonce (12 bytes) + tag (16 bytes) + ciphertext. */
  secret: string;
  keyId: string;
}

export class SecretKeyMissing extends Error {}

export const keyIdOf = (key: Buffer) => crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);

/** A 32-byte key written as 64 hex digits or as base64 (docs/connectors.md). */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : null;
}

export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  constructor(
    private readonly current: Buffer | null,
    previous: Buffer[] = [],
  ) {
    this.keys = new Map([...previous, ...(current ? [current] : [])].map((k) => [keyIdOf(k), k]));
  }

  seal(value: unknown): Sealed {
    if (!this.current) throw new SecretKeyMissing('CONNECTOR_SECRET_KEY is not set: connectors need it to keep credentials');
    const nonce = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.current, nonce);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return { secret: Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url'), keyId: keyIdOf(this.current) };
  }

  open<T = unknown>(sealed: Sealed): T {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new SecretKeyMissing(`the key ${sealed.keyId} that sealed these credentials is not configured`);
    const raw = Buffer.from(sealed.secret, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  }

  /** True when the secret was sealed with another key than the current one (it should be sealed again). */
  isStale(sealed: Sealed): boolean {
    return this.current !== null && sealed.keyId !== keyIdOf(this.current);
  }
}
