import { describe, expect, it } from 'vitest';
import { catchAllProbeAddress } from '../../src/validation/email/email-engine.js';
import { policyForMailHost } from '../../src/validation/email/mail-provider-policies.js';

describe('provider policies', () => {
  it.each([
    ['gmail-smtp-in.l.google.com', 'google', false, true],
    ['ASPMX.L.GOOGLE.COM', 'google', false, true],
    ['contoso-com.mail.protection.outlook.com', 'microsoft365', false, true],
    ['hotmail-com.olc.protection.outlook.com', 'microsoft365', false, true],
    ['mta7.am0.yahoodns.net', 'yahoo', false, false],
    ['mx0a-00123456.pphosted.com', 'proofpoint', true, true],
    ['mx1-eu1.ppe-hosted.com', 'proofpoint', true, true],
    ['eu-smtp-inbound-1.mimecast.com', 'mimecast', true, true],
    ['mx.example.net', 'other', true, true],
    ['notgoogle.com', 'other', true, true],
  ])('When the MX is %s, then the provider is %s (catch-all probe %s, RCPT evidence %s)', (mx, provider, catchAllProbe, rcptIsEvidence) => {
    expect(policyForMailHost(mx)).toMatchObject({ provider, catchAllProbe, rcptIsEvidence });
  });
});

describe('catch-all probe address', () => {
  const morning = Date.parse('2026-03-01T01:00:00Z');
  const evening = Date.parse('2026-03-01T23:00:00Z');
  const nextDay = Date.parse('2026-03-02T01:00:00Z');

  it('When the same domain is probed on the same day, then the local part is the same', () => {
    expect(catchAllProbeAddress('example.net', morning)).toBe(catchAllProbeAddress('example.net', evening));
  });

  it('When the day or the domain changes, then the local part changes', () => {
    expect(catchAllProbeAddress('example.net', morning)).not.toBe(catchAllProbeAddress('example.net', nextDay));
    expect(catchAllProbeAddress('example.net', morning).split('@')[0]).not.toBe(catchAllProbeAddress('example.org', morning).split('@')[0]);
  });
});
