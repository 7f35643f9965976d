/**
 * One attempt at a delivery: the body POSTed as JSON with a fresh signature, through the outbound guard
 * (src/net/outbound-guard.ts: https to a checked public address, no redirect followed), within a timeout. What comes
 * back is kept short and tenant-safe: the status, and at most 200 characters of the answer or of our own reason.
 */
import { createGuardedHttp, OutboundRefused, refusalIn, type GuardedHttp, type OutboundPolicy } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** Bytes of a receiver's answer read at most (the log keeps 200 characters of it). */
const ANSWER_BYTES = 2048;

export interface SendSettings {
  timeoutMs: number;
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and loopback or private addresses allowed (tests). */
  allowPrivate: boolean;
  /** The guard's resolver and address test (tests). */
  policy?: Pick<OutboundPolicy, 'resolve' | 'isPublicAddress'>;
  userAgent: string;
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  text: string;
}

async function answerText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8');
}

/** Why an attempt failed without an answer, in our words (never a stack, an address the tenant did not give, or remote text). */
function reasonOf(err: unknown, timeoutMs: number): string {
  const refusal = refusalIn(err);
  if (refusal) return `refused: ${refusal.message}`;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  return code ? `could not connect (${code})` : 'could not connect';
}

/** Guards kept for reuse (their pooled, kept-alive connections): one for every public endpoint, one per private origin. */
const GUARDS_KEPT = 64;

/**
 * Sends attempts, reusing connections: every endpoint on a public address goes through one guard (undici pools its
 * connections per origin); with WEBHOOKS_ALLOW_PRIVATE each private origin gets a guard that lets that origin alone through.
 */
export class DeliverySender {
  private readonly guards = new Map<string, GuardedHttp>();

  constructor(private readonly settings: SendSettings) {}

  private guardFor(url: string): GuardedHttp {
    const origin = this.settings.allowPrivate ? new URL(url).origin : 'public';
    let guard = this.guards.get(origin);
    if (!guard) {
      guard = createGuardedHttp({ ...this.settings.policy, privateOrigins: this.settings.allowPrivate ? [origin] : [] });
      this.guards.set(origin, guard);
      if (this.guards.size > GUARDS_KEPT) {
        const [oldest, old] = this.guards.entries().next().value!;
        this.guards.delete(oldest);
        void old.close().catch(() => undefined);
      }
    }
    return guard;
  }

  send(url: string, secret: string, body: string, nowS: number): Promise<SendResult> {
    let guard: GuardedHttp;
    try {
      guard = this.guardFor(url);
    } catch {
      return Promise.resolve({ ok: false, status: null, text: 'refused: the address is not a URL' });
    }
    return sendWith(guard, url, secret, body, this.settings, nowS);
  }

  async close(): Promise<void> {
    const guards = [...this.guards.values()];
    this.guards.clear();
    await Promise.all(guards.map((g) => g.close().catch(() => undefined)));
  }
}

/** One attempt with its own guard, closed after it (tests; a one-off send). */
export async function sendDelivery(url: string, secret: string, body: string, settings: SendSettings, nowS: number): Promise<SendResult> {
  const sender = new DeliverySender(settings);
  try {
    return await sender.send(url, secret, body, nowS);
  } finally {
    await sender.close();
  }
}

async function sendWith(guard: GuardedHttp, url: string, secret: string, body: string, settings: SendSettings, nowS: number): Promise<SendResult> {
  try {
    const response = await guard.fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': settings.userAgent,
        [SIGNATURE_HEADER]: signatureHeader(secret, nowS, body),
      },
      body,
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    const text = tenantSafeText(await answerText(response).catch(() => ''));
    return { ok: response.status >= 200 && response.status < 300, status: response.status, text };
  } catch (err) {
    if (!(err instanceof OutboundRefused) && !(err instanceof Error)) throw err;
    return { ok: false, status: null, text: reasonOf(err, settings.timeoutMs) };
  }
}
