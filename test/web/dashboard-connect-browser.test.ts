/**
 * Connect Salesforce in a real browser (Debian's Chromium, playwright-core): the Connectors page's form, Salesforce's consent
 * page (the local org's), the way back with the code, the check with its missing fields, the one-click set-up, and the
 * policy the connector follows chosen on its card.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';
import { startFakeOrg, USERS, type FakeOrg } from '../salesforce/fake-org.js';
import { signedUpPerson } from './web-agent.js';

const SUITE = 'Connect Salesforce in Chromium';

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let s: TestService;
  let mail: MailCatcher;
  let org: FakeOrg;
  let browser: Browser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    org = await startFakeOrg();
    s = await startTestService(await testDatabases[0].create(), {
      SMTP_URL: mail.url, PASSWORD_SCRYPT_LOG_N: '10', CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
      SALESFORCE_CLIENT_ID: org.state.clientId, SALESFORCE_CLIENT_SECRET: org.state.clientSecret,
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await org?.close();
    await mail?.close();
    await testDatabases[0].dropAll();
  });

  it('When a person connects Salesforce and allows access, then the check lists the missing fields, one click sets them up, and the card chooses the policy', async () => {
    const { agent } = await signedUpPerson(s.url, mail, 'browser-sf', 'a long enough passphrase');
    const context = await browser.newContext();
    await context.addCookies([...agent.cookies].map(([name, value]) => ({ name, value, url: s.url })));
    const page = await context.newPage();
    org.state.missingFields.add('Contact.CV_Phone_Type__c').add('Lead.CV_Phone_Type__c');

    await page.goto(`${s.url}/connectors`);
    const form = page.getByTestId('salesforce-connect');
    await form.getByLabel('Name').fill('Acme production');
    await form.getByRole('radio', { name: 'My Domain' }).check();
    await form.getByLabel('My Domain host').fill(org.url);
    await form.getByLabel('Check new and changed records within seconds').check();
    await form.getByRole('button', { name: 'Connect Salesforce' }).click();

    await page.waitForURL(`${org.url}/services/oauth2/authorize?**`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Allow Access?');
    await page.getByRole('button', { name: 'Allow' }).click();

    await page.waitForURL(`${s.url}/connectors/*/check?done=connected`);
    const problems = page.getByTestId('check-problems');
    await expect(problems.textContent()).resolves.toContain('Contact has no Contact.CV_Phone_Type__c');
    await page.getByRole('button', { name: 'Set up the fields for me' }).click();

    await expect(page.getByTestId('setup-done').textContent()).resolves.toContain('created the field Lead.CV_Phone_Type__c');
    await expect(page.getByTestId('check-ok').isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Back to the connectors' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('Acme production');
    await expect(page.locator('main').textContent()).resolves.toContain('real time');
    const [connector] = await s.sync.store.all();
    expect(connector.settings).toMatchObject({ login_url: org.url, realtime: true });
    expect(org.state.oauth.authorizeRequests[0].get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect([...org.state.sessionUsers.values()]).toContain(USERS.admin);

    // The connector's policy: the fixed table at first; the presets and the account's own policies to choose from.
    await s.sync.policies.create(connector.accountId, 'field-sales', 'crm_cleanup', { email: { reasons: { role: 'confirm' } } });
    await page.reload();
    const policyForm = page.getByTestId(`policy-${connector.id}`);
    const select = policyForm.getByLabel('Policy');
    await expect(select.inputValue()).resolves.toBe('');
    const offered = await select.locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    await select.selectOption('field-sales');
    await policyForm.getByRole('button', { name: 'Save the policy' }).click();
    await page.waitForURL(`${s.url}/connectors?done=policy-saved`);

    expect(offered).toEqual(['', 'default', 'signup', 'checkout', 'crm_cleanup', 'field-sales']);
    await expect(page.getByText("The connector's policy is saved: its next runs follow it.").isVisible()).resolves.toBe(true);
    await expect(page.getByTestId(`policy-${connector.id}`).getByLabel('Policy').inputValue()).resolves.toBe('field-sales');
    expect((await s.sync.store.get(connector.id))!.policy).toBe('field-sales');
    await context.close();
  });
});
