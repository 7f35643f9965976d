/**
 * Opens an extension's bundle in Chromium as Shopify's host would load it: on Shopify's extension origin
 * (https://extensions.shopifycdn.com, served here by Playwright's routing: no network), with the stand-in `shopify`
 * global installed first (extension-host.ts), then runs its target. Every call the extension makes to the service is
 * recorded in `sent`, one short line each.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../../support/chromium.js';
import type { TestDatabase } from '../../support/databases.js';
import { startTestService, type TestService } from '../../support/service.js';
import { bundleExtension } from './bundle.js';
import { installExtensionHost, type ExtensionHost, type HostInit } from './extension-host.js';

export const EXTENSION_ORIGIN = 'https://extensions.shopifycdn.com';

/** expect.poll with room for a loaded machine: two cores run several browsers and services at once. */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 50 });

/** A funded account, and its publishable key for Shopify's extension origin as docs/shopify.md has the merchant make it. */
export async function publishableKeyFor(s: TestService): Promise<{ apiKey: string; key: string }> {
  const { apiKey } = await s.newAccount(100);
  const res = await s.post('/v1/keys', { publishable: true, origins: [EXTENSION_ORIGIN] }, { key: apiKey });
  expect(res.status).toBe(201);
  return { apiKey, key: ((await res.json()) as { api_key: string }).api_key };
}

function describeCall(url: URL, method: string, body: Record<string, unknown> | null): string {
  if (url.pathname === '/v1/validate') {
    const policy = url.searchParams.get('policy');
    return `validate ${(body?.address as { line1?: string } | undefined)?.line1}${policy ? ` (policy ${policy})` : ''}`;
  }
  if (url.pathname === '/v1/checkout/events') return `event ${body?.event}`;
  if (url.pathname === '/v1/address/autocomplete') return `autocomplete ${url.searchParams.get('q')}`;
  return `${method} ${url.pathname}${body ? ` ${body.action}` : ''}`;
}

export async function openExtension(browser: Browser, bundle: string, init: HostInit): Promise<{ page: Page; sent: string[]; result: unknown }> {
  // Chromium's Local Network Access asks the buyer before a public origin reaches this machine's service: granted
  // here as a buyer would grant it; a real store's service is public and is never asked about.
  const context = await browser.newContext({ permissions: ['local-network-access'] });
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => undefined));
  const sent: string[] = [];
  page.on('pageerror', (err) => console.error(`extension page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') console.error(`extension console: ${msg.text()}`); });
  // A call is listed once it has ended (answered, or failed: the service down), not when it leaves: a test that acts
  // after the first call (delivers the order's webhook) must not overtake a call still on its way on a loaded machine.
  const list = (req: Request) => {
    const url = new URL(req.url());
    if (url.origin === EXTENSION_ORIGIN || req.method() === 'OPTIONS') return;
    sent.push(describeCall(url, req.method(), req.postData() ? (req.postDataJSON() as Record<string, unknown>) : null));
  };
  page.on('requestfinished', list);
  page.on('requestfailed', list);
  await page.route(`${EXTENSION_ORIGIN}/**`, (route) => {
    const isBundle = route.request().url().endsWith('/extension.js');
    return route.fulfill({
      status: 200,
      contentType: isBundle ? 'text/javascript' : 'text/html',
      body: isBundle ? bundle : '<!doctype html><meta charset="utf-8"><title>Extension</title><body></body><script src="/standin/extension.js"></script>',
    });
  });
  await page.addInitScript(installExtensionHost, init);
  await page.goto(`${EXTENSION_ORIGIN}/standin/`);
  const result = await page.evaluate(() => (globalThis as unknown as { extensionHost: ExtensionHost }).extensionHost.run());
  return { page, sent, result };
}

export interface ExtensionSuite {
  service: TestService;
  browser: Browser;
  /** The extension's bundle, built as the CLI builds it. */
  bundle: string;
  /** A publishable key for Shopify's extension origin. */
  key: string;
  /** The secret key of the key's account. */
  apiKey: string;
}

/**
 * One describe block's service (on `database`, with `env` besides a generous per-client limit), Chromium, the
 * extension's bundle and a key; all closed, and the database dropped, after it.
 */
export function useExtensionSuite(database: TestDatabase, handle: string, env: () => Record<string, string> = () => ({})): () => ExtensionSuite {
  let suite: ExtensionSuite | undefined;
  beforeAll(async () => {
    const service = await startTestService(await database.create(), { PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '1000', ...env() });
    const [browser, built, keys] = await Promise.all([launchChromium(), bundleExtension(handle), publishableKeyFor(service)]);
    suite = { service, browser, bundle: built.code, ...keys };
  });
  afterAll(async () => {
    await suite?.browser.close();
    await suite?.service.close();
    await database.dropAll();
  });
  return () => suite!;
}
