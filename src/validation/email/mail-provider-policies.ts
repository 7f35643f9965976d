/**
 * Large providers whose SMTP servers need their own manners, recognised by their MX host names.
 */
export interface MailProviderPolicy {
  provider: string;
  /** Suffixes of the MX host names (lower case, leading dot). */
  mxSuffixes: readonly string[];
  /** Whether to send the catch-all probe (RCPT of a made-up local part). */
  catchAllProbe: boolean;
  /** Whether the RCPT answer says anything about the mailbox. */
  rcptIsEvidence: boolean;
  why: string;
}

export const MAIL_PROVIDER_POLICIES: readonly MailProviderPolicy[] = [
  {
    provider: 'google', mxSuffixes: ['.google.com', '.googlemail.com'], catchAllProbe: false, rcptIsEvidence: true,
    why: 'Gmail answers RCPT truthfully and has no catch-all; a made-up RCPT only costs reputation',
  },
  {
    provider: 'microsoft365', mxSuffixes: ['.mail.protection.outlook.com', '.olc.protection.outlook.com'],
    catchAllProbe: false, rcptIsEvidence: true,
    why: 'Exchange Online answers a made-up recipient with 5.4.1/5.7.x errors that say nothing about catch-all',
  },
  {
    provider: 'yahoo', mxSuffixes: ['.yahoodns.net'], catchAllProbe: false, rcptIsEvidence: false,
    why: 'Yahoo accepts every RCPT and bounces later, so its answer is not evidence: not probed at all',
  },
  // The two big filtering gateways in front of companies' own servers: probed as RFC 5321 says, but named, so that an
  // egress can be given to them (they keep reputation lists of their own: SMTP_EGRESS_<NAME>_PROVIDERS).
  {
    provider: 'proofpoint', mxSuffixes: ['.pphosted.com', '.ppe-hosted.com'], catchAllProbe: true, rcptIsEvidence: true,
    why: 'Proofpoint (Enterprise and Essentials) gateway: probed as any server, named so that an egress can be given to it',
  },
  {
    provider: 'mimecast', mxSuffixes: ['.mimecast.com', '.mimecast.co.za'], catchAllProbe: true, rcptIsEvidence: true,
    why: 'Mimecast gateway: probed as any server, named so that an egress can be given to it',
  },
];

/** Every provider name an egress may be given (SMTP_EGRESS_<NAME>_PROVIDERS): the policies' and `other`. */
export const MAIL_PROVIDER_NAMES: readonly string[] = [...MAIL_PROVIDER_POLICIES.map((p) => p.provider), 'other'];

export const DEFAULT_PROVIDER_POLICY: MailProviderPolicy = {
  provider: 'other', mxSuffixes: [], catchAllProbe: true, rcptIsEvidence: true, why: 'RFC 5321 behaviour',
};

export function policyForMailHost(
  mxHost: string,
  policies: readonly MailProviderPolicy[] = MAIL_PROVIDER_POLICIES,
): MailProviderPolicy {
  const host = `.${mxHost.toLowerCase()}`;
  return policies.find((p) => p.mxSuffixes.some((suffix) => host.endsWith(suffix))) ?? DEFAULT_PROVIDER_POLICY;
}
