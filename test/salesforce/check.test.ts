/** The Salesforce plugin's check (connectors/salesforce/check.ts) against the local org's describe. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSalesforcePlugin, salesforceSettingsSchema, salesforceWriteBackSchema } from '../../connectors/salesforce/index.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { startFakeOrg, type FakeOrg } from './fake-org.js';

let org: FakeOrg;
afterEach(async () => { await org?.close(); });

const plugin = createSalesforcePlugin({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 100 }, sleep: async () => undefined });

function check(o: FakeOrg, opts: { settings?: object; overwrite?: boolean; credentials?: object } = {}) {
  return plugin.check({
    settings: salesforceSettingsSchema.parse({ login_url: o.url, ...opts.settings }),
    credentials: (opts.credentials ?? { client_id: o.state.clientId, client_secret: o.state.clientSecret }) as never,
    writeBack: salesforceWriteBackSchema.parse({ overwrite_address: opts.overwrite ?? false }),
    log: { info() {}, warn() {} },
    fetch: createGuardedHttp({ privateOrigins: [o.url] }).fetch,
  });
}

describe('the Salesforce check', () => {
  it('When the org has the metadata package, then there is no problem and nothing is written', async () => {
    org = await startFakeOrg();

    const problems = await check(org);

    expect(problems).toEqual([]);
    expect(org.state.calls).toMatchObject({ token: 1, describe: 2 });
    expect(org.state.calls['collections.update']).toBeUndefined();
  });

  it('When a field is missing on each object, then one problem per object names its own', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Contact.CV_Address_DPV__c').add('Lead.CV_Validated_At__c');

    const problems = await check(org);

    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['field_missing', 'Contact has no Contact.CV_Address_DPV__c (or the run-as user cannot see it).'],
      ['field_missing', 'Lead has no Lead.CV_Validated_At__c (or the run-as user cannot see it).'],
    ]);
  });

  it('When only Contacts are read, then Lead is not described', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Lead.CV_Validated_At__c');

    expect(await check(org, { settings: { objects: ['Contact'] } })).toEqual([]);
    expect(org.state.calls.describe).toBe(1);
  });

  it('When overwrite_address is on and an address field is read-only, then it is named with the way out', async () => {
    org = await startFakeOrg();
    org.state.readOnlyFields.add('Contact.MailingStreet');

    const without = await check(org);
    const withOverwrite = await check(org, { overwrite: true });

    expect(without).toEqual([]);
    expect(withOverwrite).toEqual([{
      code: 'field_not_writable',
      message: 'write_back.overwrite_address is on, and the run-as user cannot edit Contact.MailingStreet.',
      fix: expect.stringContaining('overwrite_address off'),
    }]);
  });

  it('When a field a run reads is hidden from the run-as user, then the check says runs read it', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Lead.Email');

    const problems = await check(org);

    expect(problems).toEqual([expect.objectContaining({ code: 'field_missing', message: 'The run-as user cannot read Lead.Email, which runs read.' })]);
  });

  it('When the grant works but the API refuses every session, then it is the credential problem', async () => {
    org = await startFakeOrg();
    org.state.refuseAllSessions = true;

    const problems = await check(org);

    expect(problems).toEqual([expect.objectContaining({ code: 'credentials_refused' })]);
  });

  it('When the org does not answer, then the check throws for the core to report', async () => {
    org = await startFakeOrg();
    await org.close();

    await expect(check(org)).rejects.toMatchObject({ reason: 'api_error' });
  });
});

describe('the one-click set-up of an org', () => {
  function setUp(o: FakeOrg, writeBack: object = {}) {
    return plugin.setUp!({
      settings: salesforceSettingsSchema.parse({ login_url: o.url }),
      credentials: { client_id: o.state.clientId, client_secret: o.state.clientSecret } as never,
      writeBack: salesforceWriteBackSchema.parse(writeBack),
      log: { info() {}, warn() {} },
      fetch: createGuardedHttp({ privateOrigins: [o.url] }).fetch,
    });
  }

  it('When fields are missing, then it creates them (picklists included) and the permission set, and the check finds nothing left', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Contact.CV_Email_Status__c').add('Lead.CV_Phone_Type__c');

    const done = await setUp(org);

    expect(done).toEqual([
      'created the field Contact.CV_Email_Status__c (CV Email Status)',
      'created the field Lead.CV_Phone_Type__c (CV Phone Type)',
      'created the permission set Contact_Validator_Integration',
      'gave Contact_Validator_Integration read and edit on 36 CV_ fields',
      'assigned Contact_Validator_Integration to the connected user',
    ]);
    expect(await check(org)).toEqual([]);
    expect(org.state.calls['tooling.customField']).toBe(2);
  });

  it('When it runs again, then it changes nothing; with shadow fields asked, it creates only those missing', async () => {
    org = await startFakeOrg();
    org.state.missingFields.add('Contact.CV_Street__c');
    expect(await setUp(org)).toContain('gave Contact_Validator_Integration read and edit on 35 CV_ fields');

    expect(await setUp(org)).toEqual([]);
    expect(await setUp(org, { shadow_fields: true })).toEqual([
      'created the field Contact.CV_Street__c (CV Street)', 'gave Contact_Validator_Integration read and edit on 1 CV_ fields',
    ]);
    expect(org.state.readOnlyFields.size).toBe(0);
  });
});
