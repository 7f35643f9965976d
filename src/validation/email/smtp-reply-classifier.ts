/**
 * What an SMTP reply to RCPT TO says about the mailbox. The reply code class (RFC 5321 §4.2.1) and the enhanced
 * status code (RFC 3463, RFC 2034) decide first; the free text only where the codes are vague. One ordered table,
 * first matching rule wins.
 */

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code (`5.1.1`) when the server sent one (RFC 2034 §4), else null. */
  enhanced: string | null;
  /** All lines of the reply, joined by a space, without codes. */
  text: string;
}

export type SmtpReplyMeaning =
  | 'accepted'
  /**
   * A positive reply that says the server did not check the recipient (252 "Cannot VRFY user, but will accept
   * message and attempt delivery"): nothing is known of the mailbox.
   */
  | 'unverified'
  | 'mailbox_not_found'
  | 'mailbox_full'
  | 'disabled'
  /** The refusal is about us (our address, our reputation, a blocklist), not about the mailbox. */
  | 'blocked'
  /** 4xx: greylisting, rate limits, 421 shutting down; worth asking again later, never evidence against the address. */
  | 'temp_fail'
  /** A permanent refusal the codes and text do not explain. */
  | 'rejected';

export interface SmtpReplyRule {
  codeClass?: 2 | 3 | 4 | 5;
  codes?: readonly number[];
  /** Matched against the whole enhanced code; `null` means "the reply has no enhanced code". */
  enhanced?: RegExp | null;
  text?: RegExp;
  meaning: SmtpReplyMeaning;
  why: string;
}

const BLOCKLIST_TEXT =
  /\b(spamhaus|spamcop|barracuda|sorbs|block ?list(ed)?|black ?list(ed)?|blocked|dnsbl|rbl|listed|reputation|banned|client host rejected|not allowed to send|sender address rejected|relay(ing)? (denied|not permitted)|too many (invalid|bad|unknown) recipients|spam)\b/i;
const NO_MAILBOX_TEXT =
  /(user unknown|unknown user|no such (user|mailbox|recipient|address|account)|does ?n[o']t exist|unknown (recipient|mailbox|address)|recipient (unknown|not found|invalid)|invalid (recipient|mailbox|address)|(user|mailbox|address|account) not found|no mailbox|not a valid mailbox|unrouteable address|mailbox unavailable|recipient address rejected)/i;
const MAILBOX_FULL_TEXT = /(mailbox (is )?full|over ?quota|quota exceeded|exceeded (its|the) quota|insufficient (storage|system storage)|out of storage)/i;
const DISABLED_TEXT = /(disabled|deactivated|inactive|suspended|account (is )?locked|no longer (active|in use|available))/i;

/**
 * Positive replies that confirm nothing, as real servers word them: "Cannot VRFY user, but will accept message and
 * attempt delivery" (Sendmail, Postfix's `252`), "recipient not verified", "accepted for delivery, not verified",
 * "will attempt delivery", "accepting all recipients" / "catch-all".
 */
const UNVERIFIED_TEXT =
  /(can ?not|can't|unable to) (vrfy|verify)|not (been )?verified|unverified|without verif|will (accept|attempt).*deliver|attempt(ing)? delivery|accept(s|ing)? (all|any) (mail|recipients|addresses)|catch[- ]?all/i;

export const SMTP_REPLY_RULES: readonly SmtpReplyRule[] = [
  {
    codes: [252], meaning: 'unverified',
    why: 'RFC 5321 §3.5.3 and §4.2.2: 252 "Cannot VRFY user, but will accept message and attempt delivery"',
  },
  { codeClass: 2, text: UNVERIFIED_TEXT, meaning: 'unverified', why: 'a positive reply whose text says the recipient was not checked' },
  { codeClass: 2, meaning: 'accepted', why: 'RFC 5321 §4.2.1: 2yz is a positive completion' },
  { codeClass: 4, meaning: 'temp_fail', why: 'RFC 5321 §4.2.1: 4yz is transient (greylisting, rate limit, 421)' },
  { codeClass: 5, enhanced: /^5\.1\.(1|10)$/, meaning: 'mailbox_not_found', why: 'RFC 3463 X.1.1 bad mailbox; RFC 7505 X.1.10 null MX' },
  { codeClass: 5, enhanced: /^5\.1\.6$/, meaning: 'mailbox_not_found', why: 'RFC 3463 X.1.6 mailbox has moved, no forwarding' },
  {
    codeClass: 5, enhanced: /^5\.4\.1$/, text: /access denied/i, meaning: 'mailbox_not_found',
    why: 'Microsoft 365 directory-based edge blocking: "5.4.1 Recipient address rejected: Access denied"',
  },
  { codeClass: 5, enhanced: /^5\.2\.2$/, meaning: 'mailbox_full', why: 'RFC 3463 X.2.2 mailbox full' },
  { codeClass: 5, enhanced: /^5\.2\.1$/, meaning: 'disabled', why: 'RFC 3463 X.2.1 mailbox disabled, not accepting messages' },
  { codeClass: 5, enhanced: /^5\.7\.\d+$/, meaning: 'blocked', why: 'RFC 3463 X.7.x security or policy status' },
  { codeClass: 5, text: BLOCKLIST_TEXT, meaning: 'blocked', why: 'blocklist or reputation text: the refusal is about us' },
  { codeClass: 5, text: MAILBOX_FULL_TEXT, meaning: 'mailbox_full', why: 'text: over quota' },
  { codeClass: 5, text: DISABLED_TEXT, meaning: 'disabled', why: 'text: account disabled' },
  { codeClass: 5, text: NO_MAILBOX_TEXT, meaning: 'mailbox_not_found', why: 'text: no such user' },
  {
    codeClass: 5, codes: [550, 551, 553], enhanced: null, meaning: 'mailbox_not_found',
    why: 'RFC 5321 §4.2.2: 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed (no enhanced code)',
  },
  { codeClass: 5, meaning: 'rejected', why: 'permanent, reason not stated' },
];

export function classifySmtpReply(reply: SmtpReply, rules: readonly SmtpReplyRule[] = SMTP_REPLY_RULES): SmtpReplyMeaning {
  const codeClass = Math.floor(reply.code / 100);
  for (const rule of rules) {
    if (rule.codeClass !== undefined && rule.codeClass !== codeClass) continue;
    if (rule.codes && !rule.codes.includes(reply.code)) continue;
    if (rule.enhanced === null && reply.enhanced !== null) continue;
    if (rule.enhanced && !(reply.enhanced && rule.enhanced.test(reply.enhanced))) continue;
    if (rule.text && !rule.text.test(reply.text)) continue;
    return rule.meaning;
  }
  return 'rejected';
}

/** Units a server may say its wait in (`try again in 5 minutes`, `retry after 300 seconds`, `in 300s`). */
const WAIT_UNITS_MS: Readonly<Record<string, number>> = { s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000, m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000, h: 3_600_000, hour: 3_600_000, hours: 3_600_000 };
const WAIT_TEXT = /\b(?:in|after|for|wait)\s+(\d{1,6})\s*(s|secs?|seconds?|m|mins?|minutes?|h|hours?)\b/i;

/**
 * How long a transient refusal asks us to wait before asking again (RFC 6647 §2.1: a greylisting server refuses
 * until a delay has passed; many say it: "4.7.1 Greylisted, try again in 300 seconds", "retry in 5 minutes"); null
 * when the text says nothing we can read, or the reply is not a 4yz. Bounded to a day: a number larger is no hint.
 */
export function retryHintMs(reply: Pick<SmtpReply, 'code' | 'text'>): number | null {
  if (Math.floor(reply.code / 100) !== 4) return null;
  const match = WAIT_TEXT.exec(reply.text);
  if (!match) return null;
  const ms = Number(match[1]) * WAIT_UNITS_MS[match[2].toLowerCase()];
  return ms > 0 && ms <= 86_400_000 ? ms : null;
}
