/**
 * How the core reaches a platform for a plugin, for runs and checks alike: through the outbound guard, and within a
 * time limit for what a platform could hold forever (a login that never answers).
 */
import { createGuardedHttp, type GuardedHttp, type OutboundPolicy } from '../net/outbound-guard.js';
import { checkPlatformUrl } from '../net/platform-url.js';
import { ConnectorError, type ConnectorContext, type ConnectorPlugin, type ConnectorSession } from './plugin.js';

/** How long opening a platform session (its login), or the one-click set-up, may take before it fails. */
export const OPEN_TIMEOUT_MS = 60_000;

/**
 * How long a connector's check may take by default (CONNECTOR_CHECK_TIMEOUT_MS): someone waits for it on a page or a
 * call, and a platform that does not answer in this time is the check's answer (`platform_unreachable`).
 */
export const CHECK_TIMEOUT_MS = 8_000;

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

/**
 * A connector's platform session, opened one way for every job (a scheduled run, a webhook delivery): every URL of its
 * settings passes the SSRF check before anything is sent (`plugin.open` signs in), and the URLs the login answered with
 * (Salesforce's instance URL) before the session is used. Every request goes through the returned guard.
 */
export async function openPlatformSession(
  plugin: ConnectorPlugin, context: Omit<ConnectorContext<unknown, unknown, unknown>, 'fetch'>,
  options: { outbound: OutboundPolicy; allowPrivate: boolean },
): Promise<{ session: ConnectorSession; http: GuardedHttp }> {
  const urls = plugin.urlsOf(context.settings);
  for (const url of urls) await checkPlatformUrl(url, options.allowPrivate);
  const http = platformGuard(options, urls);
  try {
    const session = await within(plugin.open({ ...context, fetch: http.fetch }), OPEN_TIMEOUT_MS, 'opening the platform session');
    try {
      for (const url of session.urls?.() ?? []) await checkPlatformUrl(url, options.allowPrivate);
    } catch (err) {
      await session.close?.().catch(() => undefined);
      throw err;
    }
    return { session, http };
  } catch (err) {
    // A login given up on may still be in flight: a graceful close would wait for it.
    await http.destroy().catch(() => undefined);
    throw err;
  }
}
