/**
 * SSRF guard for the URLs a connector calls (docs/connectors.md): https on a public address only. A literal IP address is
 * checked as it is; a name is looked up and every address it resolves to is checked (a name that does not resolve now
 * is let through: the run fails on it later, with the platform's error). Loopback, private ranges and plain http are
 * allowed only with CONNECTOR_ALLOW_PRIVATE=true (tests), as for the SMTP probe.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { isPubliclyRoutableAddress } from '../validation/email/address-guard.js';

export class UnsafeUrl extends Error {}

export async function checkPlatformUrl(text: string, allowPrivate: boolean): Promise<void> {
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (!isPubliclyRoutableAddress(host)) throw new UnsafeUrl('must be on a public address');
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    throw new UnsafeUrl('must be on a public address');
  }
  const addresses = await dns.lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (addresses.some((a) => !isPubliclyRoutableAddress(a.address))) throw new UnsafeUrl('must be on a public address');
}
