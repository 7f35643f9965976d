/**
 * SSRF check of the URLs a connector is saved with (docs/connectors.md): https on a public address only, with the outbound
 * guard's own rules (src/net/outbound-guard.ts): a literal address is checked as it is; a name must be fully qualified
 * and resolve, and every address it resolves to must be public. This only refuses early, with a clear answer: what
 * holds at run time is the guard, which checks the address each connection is actually opened to. Loopback, private
 * ranges and plain http are accepted only with CONNECTOR_ALLOW_PRIVATE=true (tests).
 */
import { checkedAddresses, OutboundRefused, type OutboundPolicy } from './outbound-guard.js';

export class UnsafeUrl extends Error {}

const REASONS = {
  not_public: 'must be on a public address',
  unresolvable: 'must be on a public address: the name is not fully qualified or does not resolve',
} as const;

export async function checkPlatformUrl(text: string, allowPrivate: boolean, policy: OutboundPolicy = {}): Promise<void> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrl('is not a URL');
  }
  if (url.username || url.password) throw new UnsafeUrl('must not carry credentials');
  if (allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrl('must be an https URL');
    return;
  }
  if (url.protocol !== 'https:') throw new UnsafeUrl('must be an https URL');
  try {
    await checkedAddresses(url.hostname, policy);
  } catch (err) {
    if (err instanceof OutboundRefused && (err.code === 'not_public' || err.code === 'unresolvable')) throw new UnsafeUrl(REASONS[err.code]);
    throw err;
  }
}
