/**
 * The dashboard end to end in a real browser (Debian's Chromium driven by playwright-core, PLATFORM-NOTES.md): sign up,
 * see 100 credits, confirm the address from the mail, create a key and call /v1/validate with it, upload a CSV and
 * download the result, buy a pack through the local Stripe stand-in and see the balance grow, revoke the key. Then the
 * pages on a phone's screen, and each page's labels and keyboard path.
 * UPDATE_SCREENSHOTS=1 writes the README's screenshots (docs/img/) from this run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-standin.js';

const SUITE = 'the dashboard in Chromium';

const STRIPE_KEY = 'sk_test_dashboard0123456789';
const WEBHOOK_SECRET = 'whsec_dashboardtestsecret0123456789';
const PASSWORD = 'a long enough passphrase';
const EMAIL = 'owner@shop.example';
const CSV = 'name,email,phone\nAnn,ann@example.com,+14155550123\nBob,bob@example.org,+442079460000\nCid,not-an-address,\n';
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/img') : fs.mkdtempSync(path.join(os.tmpdir(), 'cv-shots-'));

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let s: TestService;
  let mail: MailCatcher;
  let stripe: StripeStandIn;
  let browser: Browser;
  let page: Page;
  let apiKey = '';

  beforeAll(async () => {
    mail = await startMailCatcher();
    stripe = await startStripeStandIn({ secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });
    s = await startTestService(await testDatabases[0].create(), {
      SMTP_URL: mail.url, FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', RATE_LIMIT_PER_MINUTE: '1000',
      STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url,
      CREDIT_PACK_PRICES: '20000:0.0040,50000:0.0035',
    });
    stripe.setWebhookUrl(`${s.url}/webhooks/stripe`);
    browser = await launchChromium();
    page = await browser.newPage({ acceptDownloads: true, viewport: { width: 1100, height: 800 } });
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await stripe?.close();
    await mail?.close();
    await testDatabases[0].dropAll();
  });

  const balance = async () => Number((await page.getByTestId('balance').first().textContent())!.replace(/,/g, ''));

  it('When a person signs up, then the mailed link confirms the address, and signed in the overview shows 100 free credits', async () => {
    await page.goto(`${s.url}/`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your mail');

    await page.goto(await mail.link(EMAIL, '/confirm'));
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('confirmed');
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${s.url}/`);
    expect(await balance()).toBe(100);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
  });

  it('When a key is created, then it is shown once, works with /v1/validate, and the usage shows on the overview', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).first().click();
    await page.getByRole('button', { name: 'Create a secret key' }).click();
    apiKey = await page.getByTestId('new-key').inputValue();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    const res = await fetch(`${s.url}/v1/validate`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', phone: '+1 415 555 0123' }),
    });
    await page.reload(); // sends the form again: it must not create a second key
    const keys = await page.locator('tbody tr').count();
    await page.goto(`${s.url}/`);

    expect(apiKey).toMatch(/^cv_/);
    expect(keys).toBe(1);
    expect(res.status).toBe(200);
    expect(await balance()).toBeLessThan(100);
    expect(await page.locator('svg rect.bar-phone').count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-overview.png') });
  });

  it('When a CSV is uploaded, then its progress shows and the result downloads', async () => {
    await page.getByRole('link', { name: 'Batches' }).click();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cv-upload-')), 'contacts.csv');
    fs.writeFileSync(file, CSV);
    await page.getByLabel('CSV file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.waitForURL(/\/batches\?done=batch-uploaded/);
    const link = page.getByRole('link', { name: 'Download CSV' });
    await link.waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const result = fs.readFileSync((await download.path())!, 'utf8');

    expect(result.split('\n')[0]).toMatch(/^name,email,phone,.*cv_email_status/);
    expect(result).toContain('ann@example.com');
    expect(await page.locator('tr[data-batch] progress').getAttribute('value')).toBe('3');
  });

  it('When a pack is bought through Stripe Checkout, then the balance grows by the pack and a receipt is listed', async () => {
    await page.getByRole('link', { name: 'Billing' }).click();
    const before = await balance();
    await page.getByRole('button', { name: /Buy 20,000 credits/ }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}`));
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.waitForURL(/\/billing\?checkout=done/);
    await page.reload();

    expect(await balance()).toBe(before + 20_000);
    await expect(page.getByRole('table').textContent()).resolves.toContain('20,000 credits');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-billing.png') });
  });

  it('When the key is revoked, then /v1/validate refuses it', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).first().click();
    await page.getByRole('button', { name: /^Revoke key/ }).click();
    await page.waitForURL(/done=key-revoked/);
    const res = await fetch(`${s.url}/v1/validate`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com' }),
    });
    expect(res.status).toBe(401);
    await expect(page.locator('tbody').textContent()).resolves.toContain('revoked');
  });

  it('When a test key is created, then the page says it is test mode and the list marks it TEST', async () => {
    await page.getByRole('link', { name: 'API keys', exact: true }).first().click();
    await page.getByRole('button', { name: 'Create a test key' }).click();
    const testKey = await page.getByTestId('new-key').inputValue();
    const badge = page.getByTestId('test-key-badge');

    expect(testKey).toMatch(/^cv_test_/);
    await expect(page.locator('.new-key').textContent()).resolves.toContain('Test mode');
    expect(await badge.count()).toBe(1);
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.evaluate((el) => (globalThis as any).getComputedStyle(el).textTransform as string)).toBe('uppercase');
  });

  it('When each page is read with a keyboard or a screen reader, then every control has a label and the first Tab skips to the content', async () => {
    for (const route of ['/', '/keys', '/batches', '/connectors', '/billing', '/members', '/settings']) {
      await page.goto(`${s.url}${route}`);
      // In the page (a string: the test's program has Node's types, not the DOM's).
      const unlabelled = await page.evaluate(`[...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
        .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent.trim())))
        .map((el) => el.outerHTML.slice(0, 80))`);
      const h1 = await page.locator('h1').count();
      await page.keyboard.press('Tab');
      const first = await page.evaluate('document.activeElement?.textContent');
      expect([route, unlabelled, h1, first]).toEqual([route, [], 1, 'Skip to content']);
    }
  });

  it("When the dashboard is used on a phone's screen, then no page scrolls sideways", async () => {
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.context().addCookies(await page.context().cookies());
    for (const route of ['/', '/keys', '/batches', '/connectors', '/billing', '/members', '/settings', '/signin']) {
      await phone.goto(`${s.url}${route}`);
      const overflow = await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect([route, overflow]).toEqual([route, 0]);
    }
    await phone.goto(`${s.url}/`);
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-phone.png') });
    await phone.close();
  });
});
