import { describe, expect, it } from 'vitest';
import { decideEmailVerdict, FINDING_VERDICTS, type NetworkFinding } from '../../src/validation/email/verdict-table.js';

const plain = { disposable: false, role: false };

describe('verdict table', () => {
  it('When any 4xx-type finding arrives, then the status is never invalid', () => {
    for (const kind of ['temp_fail', 'blocked', 'timeout', 'no_connect', 'dns_error', 'dns_timeout', 'dns_unavailable', 'pending'] as const) {
      expect(FINDING_VERDICTS[kind].status).toBe('unknown');
    }
  });

  it('When the mailbox was accepted on a catch-all domain, then the answer is risky catch_all', () => {
    expect(decideEmailVerdict({ ...plain, finding: { kind: 'accepted', catchAll: true } })).toEqual({
      status: 'risky', risk: 'medium', smtp: 'catch_all', reason: 'catch_all',
    });
  });

  it('When a disposable domain does not exist, then undeliverable outranks disposable', () => {
    expect(decideEmailVerdict({ disposable: true, role: false, finding: { kind: 'no_such_domain' } }).reason).toBe('no_such_domain');
  });

  it('When a disposable domain takes mail, then the answer is risky disposable with high risk', () => {
    expect(decideEmailVerdict({ disposable: true, role: false, finding: { kind: 'mail_route_only' } })).toEqual({
      status: 'risky', risk: 'high', smtp: 'skipped', reason: 'disposable',
    });
  });

  it('When the domain is a typo of a well-known one, then the answer is risky typo, over disposable and role, under undeliverable', () => {
    const accepted: NetworkFinding = { kind: 'accepted', catchAll: false };
    expect(decideEmailVerdict({ disposable: true, role: true, typo: true, finding: accepted })).toEqual({
      status: 'risky', risk: 'high', smtp: 'deliverable', reason: 'typo',
    });
    expect(decideEmailVerdict({ ...plain, typo: true, finding: { kind: 'no_mail_server' } }).reason).toBe('no_mail_server');
  });

  it('When a role mailbox cannot be checked for a temporary reason, then the answer stays unknown temp_fail', () => {
    const finding: NetworkFinding = { kind: 'temp_fail' };
    expect(decideEmailVerdict({ disposable: false, role: true, finding }).reason).toBe('temp_fail');
  });

  it('When the budget ran out, then smtp is pending and the status unknown', () => {
    expect(decideEmailVerdict({ ...plain, finding: { kind: 'pending' } })).toMatchObject({ status: 'unknown', smtp: 'pending' });
  });
});
