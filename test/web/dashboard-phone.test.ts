/**
 * A first-time user's dashboard in Chromium (issue 39, items 4 and 9): a service without card payments, a person with
 * the free 100 credits, a CSV that completes and a larger one that pauses for want of credits. Before each upload the
 * page tells what the file will cost; the paused batch says why and how to go on. Then every page on a phone's screen
 * (360 × 740): nothing sticks out sideways except inside a scrollable box that shows it scrolls, and the Download link
 * is reached by scrolling down only. Screenshots go to test/web/__screenshots__/ (not committed);
 * UPDATE_SCREENSHOTS=1 also writes docs/img/dashboard-first-batch.png (the batches page on a phone) from this run.
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

const SUITE = 'a first-time user on a phone, in Chromium';
const SCREENSHOTS = path.resolve(import.meta.dirname, '__screenshots__');
const DOCS_IMG = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(import.meta.dirname, '../../docs/img') : null;
const EMAIL = 'first@shop.example';
const PASSWORD = 'a long enough passphrase';
const SMALL = 'name,email,phone\nAnn,ann@example.com,+14155550123\nBob,bob@example.org,+442079460000\nCid,not-an-address,\n';
/** 50 rows of a US address (1 credit) and a phone number (2): about 150 credits, more than are left. */
const LARGE = `street,city,state,zip,phone\n${Array.from({ length: 50 }, (_, i) =>
  `${100 + i} Main St,Springfield,IL,62701,+1 415 555 ${String(1000 + i)}`).join('\n')}\n`;

/**
 * Elements whose box ends right of the viewport, unless an ancestor clips them (overflow hidden: not shown at all) or
 * is a scrollable box with a cue (the edge shadows of `.scroll`, drawn as gradients) that itself fits. Run in the page.
 */
const OVERFLOWING = `(() => {
  const width = document.documentElement.clientWidth;
  const contained = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const { overflowX } = getComputedStyle(p);
      if (overflowX === 'visible') continue;
      if (p.getBoundingClientRect().right > width + 0.5) return false;
      return overflowX === 'hidden' || overflowX === 'clip' || getComputedStyle(p).backgroundImage.includes('gradient');
    }
    return false;
  };
  return [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > width + 0.5 && !contained(el);
  }).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ' ' + (el.textContent || '').trim().slice(0, 40));
})()`;

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let s: TestService;
  let mail: MailCatcher;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    mail = await startMailCatcher();
    s = await startTestService(await testDatabases[0].create(), {
      SMTP_URL: mail.url, FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', RATE_LIMIT_PER_MINUTE: '1000',
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await mail?.close();
    await testDatabases[0].dropAll();
  });

  async function upload(name: string, csv: string) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cv-upload-')), name);
    fs.writeFileSync(file, csv);
    await page.getByLabel('CSV file').setInputFiles(file);
    const estimate = page.locator('#upload-estimate');
    await expect.poll(() => estimate.textContent(), { timeout: 10_000 }).toMatch(/^About/);
    const said = (await estimate.textContent())!;
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.waitForURL(/\/batches\?done=batch-uploaded/);
    return said;
  }

  it('When a new person uploads a file too large for the free credits, then the page prices it first and, paused, says why and how to go on', async () => {
    // Arrange: sign up, confirm the address from the mail, sign in (if the confirmation did not), one key, one member.
    await page.goto(`${s.url}/signup`);
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.goto(await mail.link(EMAIL, '/confirm'));
    if (!(await page.getByRole('button', { name: 'Sign out' }).count())) {
      await page.goto(`${s.url}/signin`);
      await page.getByLabel('E-mail address').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${s.url}/`);
    }
    await page.goto(`${s.url}/keys`);
    await page.getByRole('button', { name: 'Create a secret key' }).click();
    await page.goto(`${s.url}/members`);
    await page.getByLabel('Their e-mail address').fill('colleague.with.a.rather.long.address@shop.example');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.waitForURL(/done=invited/);
    // Every cell of the members' table is a table cell (a flex box there drew a stray bordered cell beside the row).
    const cells = await page.evaluate(`[...document.querySelectorAll('main td')].map((td) => getComputedStyle(td).display)`) as string[];

    // Act: a small file that completes, then one that costs more than is left.
    await page.goto(`${s.url}/batches`);
    const small = await upload('contacts.csv', SMALL);
    await page.getByRole('link', { name: 'Download CSV' }).waitFor({ timeout: 15_000 });
    const large = await upload('customers-export.csv', LARGE);
    const paused = page.getByTestId('paused-batch');
    await paused.waitFor({ timeout: 15_000 });

    // Assert
    expect(cells.length).toBeGreaterThanOrEqual(8);
    expect(new Set(cells)).toEqual(new Set(['table-cell']));
    expect(small).toBe('About 9 credits (at most 12) for 3 rows; balance 100.');
    expect(large).toMatch(/^About 150 credits \(at most 300\) for 50 rows; balance \d+\. The balance does not cover it/);
    await expect(paused.textContent()).resolves.toMatch(/Paused: the account ran out of credits\.[\s\S]*The other \d+ cost about \d+ credits/);
    await expect(paused.getByTestId('grant-command').textContent()).resolves.toMatch(/^npm run -s cli -- credits grant --account \S+ --credits \d+$/);
    expect(await paused.getByRole('button', { name: /^Resume/ }).count()).toBe(1);
    await expect(page.locator('.flash').first().textContent()).resolves.not.toContain('being checked');
  });

  it("When each page is shown on a phone's screen, then nothing sticks out sideways and the Download link is reached by scrolling down", async () => {
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.context().addCookies(await page.context().cookies());
    const found: Record<string, unknown> = {};
    for (const [name, route] of [['overview', '/'], ['keys', '/keys'], ['batches', '/batches'], ['billing', '/billing'], ['members', '/members'], ['connectors', '/connectors'], ['settings', '/settings']]) {
      await phone.goto(`${s.url}${route}`);
      found[route] = { overflowing: await phone.evaluate(OVERFLOWING), sideways: await phone.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') };
      await phone.screenshot({ path: path.join(SCREENSHOTS, `phone-${name}.png`), fullPage: true });
      if (DOCS_IMG && name === 'batches') await phone.screenshot({ path: path.join(DOCS_IMG, 'dashboard-first-batch.png'), fullPage: true });
    }
    await phone.goto(`${s.url}/batches`);
    const download = phone.getByRole('link', { name: 'Download CSV' });
    await download.scrollIntoViewIfNeeded();
    const box = (await download.boundingBox())!;
    const scrolled = await phone.evaluate('[window.scrollX, window.innerWidth, window.innerHeight]') as number[];
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'phone-batches-download.png') });
    await phone.close();

    for (const route of Object.keys(found)) expect([route, found[route]]).toEqual([route, { overflowing: [], sideways: 0 }]);
    expect(scrolled[0]).toBe(0);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(scrolled[1]);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(scrolled[2]);
  });

  it("When the usage chart is shown on a phone's screen, then its axis labels are as large as the page's small print", async () => {
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${s.url}/`);
    const sizes = await phone.evaluate(`[...document.querySelectorAll('.chart-y span, .chart-x span, .chart text')]
      .map((el) => parseFloat(getComputedStyle(el).fontSize) * (el.closest('svg') ? el.closest('svg').getScreenCTM().a : 1))`) as number[];
    await phone.locator('.chart').screenshot({ path: path.join(SCREENSHOTS, 'phone-chart.png') });
    await phone.close();

    expect(sizes.length).toBeGreaterThanOrEqual(4);
    for (const size of sizes) expect(size).toBeGreaterThanOrEqual(12);
  });
});
