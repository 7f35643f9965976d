/**
 * One table from all signals to the answer's `status`, `risk`, `smtp` and `reason` (docs/api.md#vocabularies). The same table,
 * in words, is in README.md beside this file; keep the two together.
 */
import type { EmailRisk, EmailStatus, SmtpVerdict } from '../types.js';
import type { ProbeOutcome } from './mailbox-probe.js';

/** What the network checks found, from DNS to RCPT. */
export type NetworkFinding =
  | ProbeOutcome
  | { kind: 'no_such_domain' }
  | { kind: 'null_mx' }
  | { kind: 'no_mail_server' }
  | { kind: 'dns_error' }
  | { kind: 'dns_timeout' }
  /** NXDOMAIN from a resolver that denies names that exist (resolver-health.ts): nothing is known of the domain. */
  | { kind: 'dns_unavailable' }
  /** The domain takes mail; the mailbox was not asked about (request `smtp: false`, or a disposable domain). */
  | { kind: 'mail_route_only' }
  /** The provider accepts every RCPT (Yahoo): its answer would not be evidence, so it was not asked. */
  | { kind: 'unverifiable' }
  /** The budget ran out; the probe goes on in the background. */
  | { kind: 'pending' }
  /** Network checks are off for the service. */
  | { kind: 'not_checked' };

export interface EmailVerdict {
  status: EmailStatus;
  risk: EmailRisk;
  smtp: SmtpVerdict;
  reason: string;
}

export interface VerdictSignals {
  finding: NetworkFinding;
  disposable: boolean;
  role: boolean;
  /** The domain is one typing slip from a well-known mailbox domain (the answer suggests it). */
  typo?: boolean;
}

type FindingKind = NetworkFinding['kind'];

/** Row per finding, before the list flags (disposable, role) are weighed. */
export const FINDING_VERDICTS: Readonly<Record<FindingKind, EmailVerdict>> = {
  accepted: { status: 'valid', risk: 'low', smtp: 'deliverable', reason: 'accepted' },
  mailbox_not_found: { status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'mailbox_not_found' },
  disabled: { status: 'invalid', risk: 'high', smtp: 'disabled', reason: 'disabled' },
  mailbox_full: { status: 'risky', risk: 'high', smtp: 'mailbox_full', reason: 'mailbox_full' },
  no_such_domain: { status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'no_such_domain' },
  null_mx: { status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'null_mx' },
  no_mail_server: { status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'no_mail_server' },
  temp_fail: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'temp_fail' },
  blocked: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'blocked' },
  rejected: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'rejected' },
  no_connect: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'no_connect' },
  private_address: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'no_connect:private_address' },
  timeout: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'timeout' },
  throttled: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'throttled' },
  egress_blocked: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'egress_blocked' },
  egress_unavailable: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'egress_unavailable' },
  egress_auth_failed: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'egress_unavailable:auth' },
  dns_error: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_error' },
  dns_timeout: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_error:timeout' },
  dns_unavailable: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_unavailable' },
  unverifiable: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'unverifiable' },
  unverified: { status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'unverified' },
  pending: { status: 'unknown', risk: 'medium', smtp: 'pending', reason: 'timeout' },
  mail_route_only: { status: 'valid', risk: 'medium', smtp: 'skipped', reason: 'mail_server_found' },
  not_checked: { status: 'unknown', risk: 'medium', smtp: 'skipped', reason: 'not_checked' },
};

/** Findings that prove mail cannot be delivered: they outrank every list flag. */
const UNDELIVERABLE: ReadonlySet<FindingKind> = new Set([
  'no_such_domain', 'null_mx', 'no_mail_server', 'mailbox_not_found', 'disabled',
]);
/** Findings under which a role address is as good as delivered. */
const ROLE_WEIGHED: ReadonlySet<FindingKind> = new Set(['accepted', 'mail_route_only', 'not_checked']);

export function decideEmailVerdict({ finding, disposable, role, typo = false }: VerdictSignals): EmailVerdict {
  const row = FINDING_VERDICTS[finding.kind];
  if (UNDELIVERABLE.has(finding.kind)) return row;
  // `gmial.com` may take mail (typo-squatters run such domains), but not the mail of the person who mistyped it.
  if (typo) return { status: 'risky', risk: 'high', smtp: row.smtp, reason: 'typo' };
  if (disposable) return { status: 'risky', risk: 'high', smtp: row.smtp, reason: 'disposable' };
  if (finding.kind === 'accepted' && finding.catchAll === true) {
    return { status: 'risky', risk: 'medium', smtp: 'catch_all', reason: 'catch_all' };
  }
  if (role && ROLE_WEIGHED.has(finding.kind)) return { status: 'risky', risk: 'medium', smtp: row.smtp, reason: 'role' };
  return row;
}

/** A special-use domain (isSpecialUseDomain): no mailbox, network or not; never probed. */
export const RESERVED_DOMAIN_VERDICT: EmailVerdict = { status: 'invalid', risk: 'high', smtp: 'skipped', reason: 'reserved_domain' };

export function syntaxVerdict(detail: string): EmailVerdict {
  return { status: 'invalid', risk: 'high', smtp: 'skipped', reason: `syntax:${detail}` };
}
