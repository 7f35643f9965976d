/**
 * The checkout address check (connectors/shopify/extensions/address-check) as Shopify would run it: its bundle built as
 * the CLI builds it, in Debian's Chromium, under a stand-in of the extension host (extension-host.ts) on Shopify's
 * extension origin, calling the real service with a publishable key made for that origin.
 */
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY } from '../../support/chromium.js';
import { request } from '../../support/connector-api.js';
import { testDatabases } from '../../support/databases.js';
import { prerequisites } from '../../support/prerequisites.js';
import { EXTENSIONS_DIR } from './bundle.js';
import type { ExtensionHost, HostInit } from './extension-host.js';
import { eventually, openExtension, useExtensionSuite } from './harness.js';

/** A port nothing listens on: the service is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const SUITE = 'the checkout address check in Chromium';
const TARGET = 'purchase.checkout.delivery-address.render-after';
/** The stores of the suite's account, by their mode. */
const STORE: Record<string, string> = { warn: 'warn.myshopify.com', block: 'block.myshopify.com' };
const LOCALE = JSON.parse(fs.readFileSync(path.join(EXTENSIONS_DIR, 'address-check/locales/en.default.json'), 'utf8'));

const MISSPELT = { address1: '6007 applegate lane', address2: '', city: 'Louisvile', provinceCode: 'KY', zip: '40219', countryCode: 'US' };
const UNKNOWN = { address1: '1 Nonexistent Street', address2: '', city: 'Springfield', provinceCode: 'ZZ', zip: '00000', countryCode: 'US' };
/** Verified, typed in lower case with punctuation and a ZIP+4 add-on: nothing worth a prompt. */
const COSMETIC = { address1: '6007 applegate ln.', address2: '', city: 'louisville', provinceCode: 'ky', zip: '40219-1234', countryCode: 'US' };

/** The stand-in host, a global of the page (extension-host.ts). */
declare const extensionHost: ExtensionHost;

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY)).each(testDatabases)(`${SUITE} ($name)`, (database) => {
  const suite = useExtensionSuite(database, 'address-check', () => ({ CONNECTOR_SECRET_KEY: 'a1'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' }));
  const service = () => suite().service;

  beforeAll(async () => {
    // The account's two stores, one in each mode (the dashboard's connector settings).
    for (const mode of ['warn', 'block']) {
      const res = await request(service(), 'POST', '/v1/connectors', suite().apiKey, {
        type: 'shopify', name: mode, schedule: '0 3 * * *', settings: { shop: STORE[mode], resources: ['orders'], mode },
        credentials: { access_token: 'shpat_unused', api_secret: 'shpss_unused' },
      });
      expect(res.status).toBe(201);
    }
  });

  async function open(init: Partial<HostInit>, mode: 'warn' | 'block' = 'warn'): Promise<{ page: Page; sent: string[] }> {
    const { browser, bundle, key } = suite();
    return openExtension(browser, bundle, {
      target: TARGET, shop: STORE[mode], locale: LOCALE, capabilities: ['network_access', 'block_progress'],
      settings: { api_url: service().url, publishable_key: key }, ...init,
    });
  }

  it('When the buyer types a misspelt address, then the standardized one is offered, and one tap applies it', async () => {
    const { page, sent } = await open({ shippingAddress: MISSPELT });

    const banner = page.locator('s-banner');
    await eventually(() => banner.getAttribute('heading')).toBe('Did you mean this address?');
    const shown = await banner.locator('s-text').first().textContent();
    await page.locator('s-button', { hasText: 'Use this address' }).click();
    await eventually(() => page.evaluate(() => extensionHost.applied.length)).toBe(1);
    const applied = await page.evaluate(() => extensionHost.applied);
    await eventually(() => page.locator('s-banner').count()).toBe(0);

    expect(shown).toBe('6007 APPLEGATE LN, LOUISVILLE, KY 40219');
    expect(applied).toEqual([{
      type: 'updateShippingAddress',
      address: { address1: '6007 APPLEGATE LN', address2: '', city: 'LOUISVILLE', provinceCode: 'KY', zip: '40219' },
    }]);
    // The applied address is checked once more (verified: nothing more to say); the proof counts prompt and apply.
    await eventually(() => sent.filter((s) => s.startsWith('validate')).length).toBe(2);
    await eventually(() => sent.filter((s) => s.startsWith('event'))).toEqual(['event prompt_shown', 'event suggestion_applied']);
    await page.close();
  });

  it('When the block names a policy (crm_cleanup), then the check follows it: a corrected address is taken without a prompt', async () => {
    const { page, sent } = await open({ shippingAddress: MISSPELT, settings: { api_url: service().url, publishable_key: suite().key, policy: 'crm_cleanup' } });
    const misnamed = await open({ shippingAddress: MISSPELT, settings: { api_url: service().url, publishable_key: suite().key, policy: 'Not A Policy' } });

    await eventually(() => sent.length).toBe(2);
    await page.waitForTimeout(300);

    // The same address that prompts under the key's default (above) is accepted; a setting that names no policy turns the block off.
    expect(sent).toEqual(['GET /v1/checkout/settings', 'validate 6007 applegate lane (policy crm_cleanup)']);
    expect(await page.locator('s-banner').count()).toBe(0);
    expect(misnamed.sent.filter((s) => s.startsWith('validate'))).toEqual([]);
    await page.close();
    await misnamed.page.close();
  });

  it('When the address differs only in case, punctuation and ZIP+4, then nothing is shown', async () => {
    const { page, sent } = await open({ shippingAddress: COSMETIC });

    await eventually(() => sent.length).toBe(2);
    await page.waitForTimeout(300);

    expect(await page.locator('s-banner').count()).toBe(0);
    expect(sent).toEqual(['GET /v1/checkout/settings', 'validate 6007 applegate ln.']);
    await page.close();
  });

  it('When an express wallet brings a misspelt address, then the suggestion is shown without a button that cannot work', async () => {
    const { page } = await open({ shippingAddress: MISSPELT, canSelectCustomAddress: false });

    await eventually(() => page.locator('s-banner').getAttribute('heading')).toBe('Did you mean this address?');

    expect(await page.locator('s-button').allTextContents()).toEqual(['Keep mine']);
    await page.close();
  });

  it('When the address is undeliverable in "warn" mode, then the buyer is warned and may go on, which is counted', async () => {
    const { page, sent } = await open({ shippingAddress: UNKNOWN }, 'warn');

    await eventually(() => page.locator('s-banner').getAttribute('tone')).toBe('warning');
    const journey = await page.evaluate(() => extensionHost.continueJourney(true));

    expect(await page.locator('s-banner').getAttribute('heading')).toBe('We could not find this address');
    expect(journey.behavior).toBe('allow');
    await eventually(() => sent.filter((s) => s.startsWith('event'))).toEqual(['event prompt_shown', 'event went_on_after_warning']);
    await page.close();
  });

  it('When the address is undeliverable in "block" mode, then Continue is stopped until the buyer changes it', async () => {
    const { page } = await open({ shippingAddress: UNKNOWN }, 'block');

    await eventually(() => page.locator('s-banner').getAttribute('tone')).toBe('critical');
    const blocked = await page.evaluate(() => extensionHost.continueJourney(true));
    const notAllowedToBlock = await page.evaluate(() => extensionHost.continueJourney(false));
    await page.evaluate((a) => extensionHost.setShippingAddress(a), MISSPELT);
    // Continue pressed at once: the check of the new address is awaited, not the old verdict reused.
    const afterChange = await page.evaluate(() => extensionHost.continueJourney(true));

    expect(blocked).toEqual({
      behavior: 'block', reasons: ['undeliverable shipping address'],
      errors: [{ message: 'Please correct the shipping address: we could not find it, and the order could not be delivered.' }],
    });
    expect(notAllowedToBlock.behavior).toBe('allow');
    expect(afterChange.behavior).toBe('allow');
    await page.close();
  });

  it('When the service is down or the settings are missing, then nothing shows and nothing is blocked', async () => {
    const down = await open({ shippingAddress: UNKNOWN, settings: { api_url: `http://127.0.0.1:${await closedPort()}`, publishable_key: suite().key } }, 'block');
    const unset = await open({ shippingAddress: UNKNOWN, settings: {} }, 'block');
    const secretKey = await open({ shippingAddress: UNKNOWN, settings: { api_url: service().url, publishable_key: 'cv_live_x' } }, 'block');

    const started = Date.now();
    const journey = await down.page.evaluate(() => extensionHost.continueJourney(true));
    const waited = Date.now() - started;

    expect(journey.behavior).toBe('allow');
    expect(waited).toBeLessThan(3_000);
    expect(down.sent).toEqual(['GET /v1/checkout/settings', 'validate 1 Nonexistent Street']);
    expect(unset.sent).toEqual([]);
    expect(secretKey.sent).toEqual([]);
    for (const { page } of [down, unset, secretKey]) {
      expect(await page.locator('s-banner').count()).toBe(0);
      await page.close();
    }
  });
});
