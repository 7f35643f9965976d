/**
 * Re-verification after N days (Salesforce `settings.reverify_after_days`), on SQLite and PostgreSQL: records verified longer
 * ago than the setting are checked again in full though unchanged, charged once for it, and their CV_Validated_At__c moves on.
 */
import { describe, expect, it } from 'vitest';
import { json, request, runNow } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { useTestService } from '../support/service.js';
import { startFakeOrg } from '../salesforce/fake-org.js';

describe.each(testDatabases)('re-verification on $name', (database) => {
  const service = useTestService(database, { CONNECTOR_SECRET_KEY: 'f6'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', CONNECTOR_LEASE_MS: '3000' });

  it('When records were verified longer ago than reverify_after_days, then a run checks them again, once', async () => {
    const s = service();
    const org = await startFakeOrg();
    try {
      const { apiKey: key } = await s.newAccount(1000);
      const contacts = org.state.seed('Contact', 3, (i) => ({
        MailingStreet: `${100 + i} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219', Phone: `+1 502 555 ${1000 + i}`,
      }));
      const { connector_id: id } = await json(await request(s, 'POST', '/v1/connectors', key, {
        type: 'salesforce', name: 'Org', schedule: '0 3 * * *',
        settings: { login_url: org.url, objects: ['Contact'], reverify_after_days: 30 },
        credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
      }));

      const first = await runNow(s, key, id);
      const unchanged = await runNow(s, key, id);
      // Two records' last verification is moved 60 days back, as if it had happened then.
      const longAgo = Date.now() - 60 * 86_400_000;
      for (const c of contacts.slice(0, 2)) org.state.record(c.Id as string)!.row.CV_Validated_At__c = longAgo;
      const due = await runNow(s, key, id);
      const after = await runNow(s, key, id);

      expect(first).toMatchObject({ status: 'completed', records_validated: 3, credits_charged: 9 });
      expect(unchanged).toMatchObject({ status: 'completed', records_validated: 0, credits_charged: 0 });
      expect(due).toMatchObject({ status: 'completed', records_validated: 2, records_written: 2, credits_charged: 6 });
      expect(after).toMatchObject({ status: 'completed', records_validated: 0, credits_charged: 0 });
      for (const c of contacts.slice(0, 2)) expect(Date.parse(String(org.state.get(c.Id as string)!.CV_Validated_At__c))).toBeGreaterThan(longAgo);
    } finally {
      await org.close();
    }
  });
});
