/**
 * How the core reaches a platform for a plugin, for runs and checks alike: through the outbound guard, and within a
 * time limit for what a platform could hold forever (a login that never answers).
 */
import { createGuardedHttp, type GuardedHttp, type OutboundPolicy } from '../net/outbound-guard.js';
import { ConnectorError } from './plugin.js';

/** How long opening a platform session (its login), or a connector's check, may take before it fails. */
export const OPEN_TIMEOUT_MS = 60_000;

/** The work, or a ConnectorError once `ms` have passed (a platform that accepts the connection and never answers). */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectorError('api_error', `${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A platform's way out: the outbound guard, with the connector's own origins allowed on loopback or a private network
 * only under CONNECTOR_ALLOW_PRIVATE (tests). A redirect goes nowhere, whatever the allowance.
 */
export function platformGuard(options: { outbound: OutboundPolicy; allowPrivate: boolean }, urls: string[]): GuardedHttp {
  const { outbound, allowPrivate } = options;
  return createGuardedHttp({ ...outbound, privateOrigins: [...(outbound.privateOrigins ?? []), ...(allowPrivate ? urls : [])] });
}
