/**
 * A connector's monthly credit cap (src/sync/credit-caps.ts), on SQLite and PostgreSQL: a run stops before the record that
 * would pass it, the connector pauses (`credit_cap_reached`), its owner gets one e-mail, and a raised cap lets it go on.
 */
import { describe, expect, it } from 'vitest';
import { json, request, runNow } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startFakeOrg } from '../salesforce/fake-org.js';
import { newKeyOf, signedUpPerson, useServiceWithMail } from '../web/web-agent.js';

describe.each(testDatabases)('the monthly credit cap on $name', (database) => {
  const started = useServiceWithMail(database, {
    FREE_CREDITS: '0', PASSWORD_SCRYPT_LOG_N: '10', CONNECTOR_SECRET_KEY: 'e5'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', CONNECTOR_LEASE_MS: '3000',
  });

  it('When the cap is reached, then the run pauses before passing it, the owner is mailed once, and a raised cap lets it go on', async () => {
    const { s, mail } = started();
    const org = await startFakeOrg();
    try {
      const { agent, email } = await signedUpPerson(s.url, mail, 'cap-owner', 'a long enough passphrase');
      const key = await newKeyOf(agent);
      const account = (await json(await request(s, 'GET', '/v1/account', key))).account_id as string;
      await s.accounts.grantCredits(account, 1000);
      // A US address (1 credit) and a mobile phone (2) each; the e-mail is free with network checks off.
      org.state.seed('Contact', 5, (i) => ({
        MailingStreet: `${100 + i} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219', Phone: `+1 502 555 ${1000 + i}`,
      }));
      const created = await json(await request(s, 'POST', '/v1/connectors', key, {
        type: 'salesforce', name: 'Capped org', schedule: '0 3 * * *', credit_cap_monthly: 6,
        settings: { login_url: org.url, objects: ['Contact'] }, credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
      }));
      const id = created.connector_id as string;

      const run = await runNow(s, key, id);
      const connector = await json(await request(s, 'GET', `/v1/connectors/${id}`, key));

      expect(created.credit_cap_monthly).toBe(6);
      expect(run).toMatchObject({ status: 'paused', reason: 'credit_cap_reached', records_validated: 2, credits_charged: 6 });
      expect(connector).toMatchObject({ status: 'paused', reason: 'credit_cap_reached', credits_this_month: 6, credit_cap_monthly: 6 });
      const alert = await mail.next(email, 1);
      expect(alert.subject).toBe('Connector Capped org reached its monthly credit cap');
      expect(alert.text).toContain('used 6 of its 6 credits this month');

      // Still capped: a run asked for stops at once, and no second mail.
      const again = await runNow(s, key, id);
      expect(again).toMatchObject({ status: 'paused', reason: 'credit_cap_reached', records_validated: 0 });
      expect(mail.messages.filter((m) => m.subject.includes('monthly credit cap'))).toHaveLength(1);

      const raised = await json(await request(s, 'PATCH', `/v1/connectors/${id}`, key, { credit_cap_monthly: 100 }));
      expect(raised).toMatchObject({ status: 'active', reason: null, credit_cap_monthly: 100 });
      const rest = await runNow(s, key, id);
      expect(rest).toMatchObject({ status: 'completed', records_validated: 3, credits_charged: 9 });
    } finally {
      await org.close();
    }
  });
});
