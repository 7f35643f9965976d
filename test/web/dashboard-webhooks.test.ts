/**
 * The dashboard's Webhooks page in a real browser (Debian's Chromium, playwright-core): a person adds an endpoint (the
 * secret shown once), sets the low-balance threshold, sees the signed delivery in the log and sends it again; a form
 * without its CSRF token is refused; another account's endpoint is answered like a missing one.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SUITE = 'the Webhooks page in Chromium';
const PASSWORD = 'a long enough passphrase';
const EMAIL = 'hooks@shop.example';

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let s: TestService;
  let mail: MailCatcher;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let secret = '';

  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver();
    s = await startTestService(await testDatabases[0]!.create(), {
      SMTP_URL: mail.url, FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', RATE_LIMIT_PER_MINUTE: '1000',
      CONNECTOR_SECRET_KEY: 'd4'.repeat(32), WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TICK_MS: '100',
    });
    await s.people.signUp({ email: EMAIL, password: PASSWORD }, s.url, '127.0.0.1');
    await s.people.confirmEmail(new URL(await mail.link(EMAIL, '/confirm')).searchParams.get('token'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${s.url}/signin`);
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${s.url}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await receiver?.close();
    await mail?.close();
    await testDatabases[0]!.dropAll();
  });

  it('When an endpoint is added, then its secret is shown once and the list shows it without the secret', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel(/credits\.low/).check();
    await page.getByLabel(/batch\.completed/).check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    secret = await page.getByTestId('new-secret').inputValue();
    await page.goto(`${s.url}/webhook-endpoints`);

    expect(secret).toMatch(/^whsec_/);
    expect(await page.getByTestId('new-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole('heading', { name: receiver.url }).count()).resolves.toBe(1);
  });

  it('When the threshold is set above the balance, then a signed credits.low arrives, shows in the log and can be sent again', async () => {
    await page.getByLabel('Threshold (credits)').fill('500');
    await page.getByRole('button', { name: 'Save the alert' }).click();
    await page.waitForURL(/done=alert-saved/);
    const [first] = await receiver.waitFor(1);
    const alertMail = await mail.next(EMAIL);
    await page.reload();
    const row = page.getByTestId('deliveries').locator('tbody tr').first();

    expect(first!.body).toMatchObject({ type: 'credits.low', data: { balance: 100, threshold: 500 } });
    expect(verifySignature(secret, first!.raw, String(first!.headers['contact-validator-signature']))).toBe(true);
    expect(alertMail.subject).toContain('100 credits');
    expect(await page.getByTestId('threshold').textContent()).toBe('500');
    expect(await row.textContent()).toContain('succeeded');

    await row.getByRole('button', { name: /Send credits\.low .* again/ }).click();
    await page.waitForURL(/done=sent/);
    const again = await receiver.waitFor(2);

    expect(again[1]!.body.id).toBe(first!.body.id);
    expect(await page.getByTestId('deliveries').locator('tbody tr').first().locator('td[data-label="Attempts"]').textContent()).toBe('2');
  });

  it('When a form comes without its CSRF token, then it is refused and nothing changes', async () => {
    const res = await page.request.post(`${s.url}/webhook-endpoints`, { form: { url: receiver.url, events: 'credits.low' }, maxRedirects: 0 });
    const threshold = await page.request.post(`${s.url}/webhook-endpoints/low-balance`, { form: { threshold: '1' }, maxRedirects: 0 });
    await page.reload();

    expect(res.status()).toBe(403);
    expect(threshold.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 2, name: receiver.url }).count()).resolves.toBe(1);
    expect(await page.getByTestId('threshold').textContent()).toBe('500');
  });

  it("When another account's endpoint is named in a form, then it is answered like a missing one", async () => {
    const other = await s.newAccount(0);
    const created = await fetch(`${s.url}/v1/webhook_endpoints`, {
      method: 'POST', headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['credits.low'] }),
    });
    const theirs = (await created.json()) as { id: string };
    const csrf = await page.locator('body').getAttribute('data-csrf');

    const res = await page.request.post(`${s.url}/webhook-endpoints/${theirs.id}/delete`, { form: { _csrf: csrf! }, maxRedirects: 0 });

    expect(res.status()).toBe(404);
    expect((await fetch(`${s.url}/v1/webhook_endpoints`, { headers: { authorization: `Bearer ${other.apiKey}` } }).then((r) => r.json()) as any).webhook_endpoints).toHaveLength(1);
  });

  it('When the page is read with a keyboard or on a phone, then every control has a label and nothing scrolls sideways', async () => {
    await page.goto(`${s.url}/webhook-endpoints`);
    const unlabelled = await page.evaluate(`[...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || (el.tagName === 'BUTTON' && el.textContent.trim())))
      .map((el) => el.outerHTML.slice(0, 80))`);
    await page.keyboard.press('Tab');
    const first = await page.evaluate('document.activeElement?.textContent');
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${s.url}/webhook-endpoints`);
    const sideways = await phone.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    await phone.close();

    expect(unlabelled).toEqual([]);
    expect(first).toBe('Skip to content');
    expect(sideways).toBe(0);
  });

  it('When the endpoint is deleted, then the page says so and lists none', async () => {
    await page.getByRole('button', { name: `Delete endpoint ${receiver.url}` }).click();
    await page.waitForURL(/done=deleted/);

    await expect(page.getByText('No endpoint yet.').count()).resolves.toBe(1);
  });
});
