import { describe, expect, it } from 'vitest';
import { classifySmtpReply, retryHintMs, type SmtpReplyMeaning } from '../../src/validation/email/smtp-reply-classifier.js';

describe('SMTP reply classification (code class and RFC 3463 codes first, text second)', () => {
  it.each<[number, string | null, string, SmtpReplyMeaning]>([
    [250, '2.1.5', 'Recipient OK', 'accepted'],
    [251, null, 'User not local; will forward', 'accepted'],
    [252, '2.1.5', 'Cannot VRFY user, but will accept message and attempt delivery', 'unverified'],
    [252, null, 'Cannot VRFY user; try RCPT to attempt delivery (or try finger)', 'unverified'],
    [250, '2.1.5', 'Recipient accepted, not verified', 'unverified'],
    [250, null, 'OK - will attempt delivery', 'unverified'],
    [250, '2.1.5', 'Accepting all recipients (catch-all)', 'unverified'],
    [250, '2.1.5', 'Ok, accepted for delivery', 'accepted'],
    [451, '4.7.1', 'Greylisted, please try again later', 'temp_fail'],
    [450, '4.2.0', 'Recipient address rejected: Greylisted', 'temp_fail'],
    [421, '4.7.0', 'Too many connections, slow down', 'temp_fail'],
    [452, '4.2.2', 'Mailbox full, try later', 'temp_fail'],
    [450, null, 'User unknown in local recipient table', 'temp_fail'],
    [550, '5.1.1', 'The email account that you tried to reach does not exist', 'mailbox_not_found'],
    [550, '5.1.10', 'RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup', 'mailbox_not_found'],
    [550, '5.4.1', 'Recipient address rejected: Access denied. AS(201806281)', 'mailbox_not_found'],
    [550, '5.4.1', 'Routing loop detected', 'rejected'],
    [552, '5.2.2', 'Mailbox full', 'mailbox_full'],
    [550, '5.2.1', 'The email account that you tried to reach is disabled', 'disabled'],
    [550, '5.7.1', 'Service unavailable, Client host [192.0.2.1] blocked using Spamhaus', 'blocked'],
    [550, '5.7.606', 'Access denied, banned sending IP [192.0.2.1]', 'blocked'],
    [554, '5.7.1', 'Recipient address rejected: user unknown', 'blocked'],
    [554, null, 'Your IP is listed on a DNSBL', 'blocked'],
    [550, '5.0.0', 'Mailbox quota exceeded', 'mailbox_full'],
    [550, '5.0.0', 'Account deactivated', 'disabled'],
    [550, '5.0.0', 'No such user here', 'mailbox_not_found'],
    [550, null, 'Requested action not taken', 'mailbox_not_found'],
    [553, null, 'Sorry, that domain is not in my list of allowed rcpthosts', 'mailbox_not_found'],
    [554, '5.0.0', 'Transaction failed', 'rejected'],
    [500, '5.5.2', 'Syntax error', 'rejected'],
  ])('When the reply is %i %s "%s", then it means %s', (code, enhanced, text, meaning) => {
    expect(classifySmtpReply({ code, enhanced, text })).toBe(meaning);
  });
});

describe('the wait a transient refusal asks for (RFC 6647 §2.1)', () => {
  it.each<[number, string, number | null]>([
    [451, '4.7.1 Greylisted, try again in 300 seconds', 300_000],
    [451, '4.7.1 Please try again in 5 minutes', 300_000],
    [450, '4.2.0 Greylisted, retry after 60s', 60_000],
    [421, '4.7.0 Too many connections, wait 2 min', 120_000],
    [451, '4.7.1 Temporarily deferred for 1 hour', 3_600_000],
    [451, '4.7.1 Greylisted, see http://postgrey.schweikert.ch/help/example.com.html', null],
    [451, 'try again in 99999 hours', null],
    [550, '5.7.1 Blocked, try again in 300 seconds', null],
  ])('When the reply is %i "%s", then the wait is %s ms', (code, text, ms) => {
    expect(retryHintMs({ code, text })).toBe(ms);
  });
});
