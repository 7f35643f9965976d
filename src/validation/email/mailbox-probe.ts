/**
 * The mailbox probe: asks the domain's mail hosts whether they would take mail for the address, without sending
 * any. RFC 5321 §3.3: greeting, EHLO (HELO when EHLO is refused, §4.1.4), STARTTLS when offered (RFC 3207),
 * MAIL FROM, RCPT TO for a made-up local part (catch-all probe) and for the address, RSET, QUIT. A host that cannot
 * be reached hands over to the next one by MX preference (RFC 5321 §5.1).
 */
import { isPubliclyRoutableAddress } from './address-guard.js';
import { ConnectionLimitTimeoutError, ConnectionRateExceededError, type ConnectionLimits } from './connection-limits.js';
import type { MailHost, MailHostResolver } from './mail-host-resolver.js';
import { EgressError, directEgress, type EgressState, type MailEgress } from './mail-egress.js';
import type { MailProviderPolicy } from './mail-provider-policies.js';
import { classifySmtpReply, retryHintMs, type SmtpReply, type SmtpReplyMeaning } from './smtp-reply-classifier.js';
import { SmtpSession, SmtpTimeoutError } from './smtp-session.js';
import { slowDownAsked, type HostManners } from './host-manners.js';

export type ProbeOutcome =
  | { kind: 'accepted'; catchAll: boolean | null }
  /** `retryAfterMs`: how long a transient refusal said to wait (retryHintMs), when it said. */
  | { kind: Exclude<SmtpReplyMeaning, 'accepted'>; retryAfterMs?: number }
  /** Nothing reachable: refused connections, closed sockets, no addresses for the MX names. */
  | { kind: 'no_connect' }
  /** Every address of every mail host is loopback/private/reserved and the guard is on. */
  | { kind: 'private_address' }
  /**
   * We have talked to this mail host as often as our manners allow this minute (connection-limits.ts), or it asked us
   * to come back later (host-manners.ts): `retryAfterMs`, how long until it may be asked again.
   */
  | { kind: 'throttled'; retryAfterMs?: number }
  | { kind: 'timeout' }
  /**
   * The egress cannot reach port 25: its proxy refused the connection by its rules, or the mail host could not be
   * reached while the egress's last check (egress-health.ts) found port 25 closed on it.
   */
  | { kind: 'egress_blocked' }
  /** The egress's proxy could not be reached or did not speak SOCKS5. */
  | { kind: 'egress_unavailable' }
  /** The egress's proxy refused our username and password. */
  | { kind: 'egress_auth_failed' };

export interface MailboxProbeSettings {
  port: number;
  /** Our identity when the request names no egress (this host's own). */
  heloName: string;
  mailFrom: string;
  connectTimeoutMs: number;
  replyTimeoutMs: number;
  startTls: boolean;
  allowPrivate: boolean;
  /** How many MX hosts to try, and how many addresses of each. */
  maxMailHosts: number;
  maxAddressesPerHost: number;
  /** How long to wait for a free connection slot. */
  slotWaitMs: number;
}

export interface MailboxProbeRequest {
  /** `local@domain` in normalized form: already through the syntax check, so plain atext and LDH. */
  address: string;
  /** The made-up address of the catch-all probe, or null to send none. */
  catchAllProbeAddress: string | null;
  hosts: readonly MailHost[];
  policy: MailProviderPolicy;
  signal: AbortSignal;
  /** The way out for this provider (mail-egress.ts), with its EHLO name and MAIL FROM; default: this host's own. */
  egress?: MailEgress;
}

export interface MailboxProbeDependencies {
  resolver: MailHostResolver;
  limits: ConnectionLimits;
  settings: MailboxProbeSettings;
  /** What the egress's last check found (egress-health.ts): `blocked` turns an unreachable host into `egress_blocked`. */
  egressState?: (egress: MailEgress) => EgressState;
  /** How often each mail host lets us come (host-manners.ts): the next probe to a host that said 421 waits. */
  manners?: HostManners;
}

/**
 * A conversation either settles the question or says why the next host should be asked; `slowDown`: the host asked us
 * to come less often (a 421, a 4.7.x about us), with the wait it named.
 */
type ConversationResult = { final: boolean; outcome: ProbeOutcome; slowDown?: { hintMs: number | null } | null };
const TLS_FAILED = Symbol('STARTTLS handshake failed');
/** RSET and QUIT come after the answer: a server slow to acknowledge them does not hold the answer up for long. */
const CLOSING_TIMEOUT_MS = 1000;

export async function probeMailbox(request: MailboxProbeRequest, deps: MailboxProbeDependencies): Promise<ProbeOutcome> {
  const egress = request.egress ?? directEgress(deps.settings.heloName, deps.settings.mailFrom);
  const outcome = await probeHosts({ ...request, egress }, deps);
  // Nothing reached through an egress that cannot reach port 25 at all: the egress is to blame, not the mail host.
  const unreachable = outcome.kind === 'no_connect' || outcome.kind === 'timeout';
  return unreachable && deps.egressState?.(egress) === 'blocked' ? { kind: 'egress_blocked' } : outcome;
}

async function probeHosts(request: MailboxProbeRequest & { egress: MailEgress }, deps: MailboxProbeDependencies): Promise<ProbeOutcome> {
  const { settings, resolver } = deps;
  let lastFailure: ProbeOutcome | null = null;
  for (const host of request.hosts.slice(0, settings.maxMailHosts)) {
    if (request.signal.aborted) return { kind: 'timeout' };
    const resolved = await resolver.resolveHostAddresses(host.name);
    if (resolved.kind !== 'addresses') {
      lastFailure = moreTelling(lastFailure, { kind: resolved.kind === 'timeout' ? 'timeout' : 'no_connect' });
      continue;
    }
    const reachable = settings.allowPrivate ? resolved.addresses : resolved.addresses.filter(isPubliclyRoutableAddress);
    if (reachable.length === 0) {
      lastFailure = moreTelling(lastFailure, { kind: 'private_address' });
      continue;
    }
    for (const ip of reachable.slice(0, settings.maxAddressesPerHost)) {
      const result = await converseWithSlot(ip, host.name, request, deps);
      if (result.final) return result.outcome;
      lastFailure = moreTelling(lastFailure, result.outcome);
    }
  }
  return lastFailure ?? { kind: 'no_connect' };
}

const EGRESS_OUTCOME = { blocked: 'egress_blocked', unavailable: 'egress_unavailable', auth: 'egress_auth_failed' } as const;

/** When no host settles the question, the answer names what a server said over what a socket did. */
const FAILURE_WEIGHT: Partial<Record<ProbeOutcome['kind'], number>> = {
  blocked: 5, temp_fail: 5, throttled: 4, timeout: 3, no_connect: 2, private_address: 1,
};

function moreTelling(kept: ProbeOutcome | null, next: ProbeOutcome): ProbeOutcome {
  if (!kept) return next;
  return (FAILURE_WEIGHT[next.kind] ?? 0) >= (FAILURE_WEIGHT[kept.kind] ?? 0) ? next : kept;
}

async function converseWithSlot(
  ip: string,
  hostName: string,
  request: MailboxProbeRequest & { egress: MailEgress },
  deps: MailboxProbeDependencies,
): Promise<ConversationResult> {
  // A host that asked us to come back later is not asked before then, by any probe (host-manners.ts).
  const wait = deps.manners?.waitMs(ip) ?? 0;
  if (wait > deps.settings.slotWaitMs) return { final: false, outcome: { kind: 'throttled', retryAfterMs: wait } };
  if (wait > 0 && !(await pause(wait, request.signal))) return { final: false, outcome: { kind: 'timeout' } };
  let release: () => void;
  try {
    release = await deps.limits.acquire(ip, deps.settings.slotWaitMs);
  } catch (error) {
    if (error instanceof ConnectionLimitTimeoutError) return { final: false, outcome: { kind: 'timeout' } };
    if (error instanceof ConnectionRateExceededError) return { final: false, outcome: { kind: 'throttled' } };
    throw error;
  }
  try {
    let result = await converse(ip, hostName, request, deps.settings);
    // A server that offers STARTTLS but cannot finish the handshake is asked again in plain text: the probe
    // carries nothing secret, and RFC 3207 §4.1 leaves the client free to go on without TLS.
    if (result === TLS_FAILED) result = await converse(ip, hostName, request, { ...deps.settings, startTls: false });
    if (result === TLS_FAILED) return { final: false, outcome: { kind: 'no_connect' } };
    if (result.slowDown) deps.manners?.refused(ip, result.slowDown.hintMs);
    else if (result.final) deps.manners?.answered(ip);
    return result;
  } finally {
    release();
  }
}

async function converse(
  ip: string,
  hostName: string,
  request: MailboxProbeRequest & { egress: MailEgress },
  settings: MailboxProbeSettings,
): Promise<ConversationResult | typeof TLS_FAILED> {
  let session: SmtpSession | null = null;
  const onAbort = () => session?.abort(new SmtpTimeoutError('probe'));
  request.signal.addEventListener('abort', onAbort);
  try {
    const opened = await SmtpSession.open({
      host: ip,
      port: settings.port,
      connectTimeoutMs: settings.connectTimeoutMs,
      replyTimeoutMs: settings.replyTimeoutMs,
      connect: request.egress.connect,
    });
    session = opened.session;
    if (request.signal.aborted) onAbort();
    const result = await talk(session, opened.greeting, hostName, request, settings);
    // QUIT also after a refusal (RFC 5321 §3.1 asks it even after a 554 greeting); not on a broken TLS session.
    if (result !== TLS_FAILED) await session.closePolitely(Math.min(settings.replyTimeoutMs, CLOSING_TIMEOUT_MS));
    return result;
  } catch (error) {
    if (error instanceof SmtpTimeoutError) return { final: false, outcome: { kind: 'timeout' } };
    // The egress fails every host alike: asking the next one would only wait for the same refusal.
    if (error instanceof EgressError) return { final: true, outcome: { kind: EGRESS_OUTCOME[error.fault] } };
    if (isSocketError(error)) return { final: false, outcome: { kind: 'no_connect' } };
    throw error;
  } finally {
    request.signal.removeEventListener('abort', onAbort);
    session?.destroy();
  }
}

/** From the greeting to the answer about the address. */
async function talk(
  session: SmtpSession,
  greeting: SmtpReply,
  hostName: string,
  request: MailboxProbeRequest & { egress: MailEgress },
  settings: MailboxProbeSettings,
): Promise<ConversationResult | typeof TLS_FAILED> {
  // RFC 5321 §3.1: a 554 or 421 greeting means this host will not talk; another MX may.
  if (greeting.code !== 220) return { final: false, outcome: refusal(greeting), slowDown: slowDownAsked(greeting) };

  const { heloName, mailFrom } = request.egress;
  const hello = await sayHello(session, heloName);
  if (!isPositive(hello)) return { final: true, outcome: refusal(hello), slowDown: slowDownAsked(hello) };
  if (settings.startTls && offers(hello, 'STARTTLS')) {
    const ready = await session.command('STARTTLS');
    if (ready.code === 220) {
      try {
        await session.startTls(hostName, settings.replyTimeoutMs);
      } catch {
        return TLS_FAILED;
      }
      const again = await sayHello(session, heloName);
      if (!isPositive(again)) return { final: true, outcome: refusal(again) };
    }
  }

  const mail = await session.command(`MAIL FROM:<${mailFrom}>`, 'MAIL');
  if (!isPositive(mail)) return { final: true, outcome: refusal(mail), slowDown: slowDownAsked(mail) };

  const catchAllReply = request.catchAllProbeAddress
    ? await session.command(`RCPT TO:<${request.catchAllProbeAddress}>`, 'RCPT')
    : null;
  const reply = await session.command(`RCPT TO:<${request.address}>`, 'RCPT');
  return { final: true, outcome: outcomeOfRcpt(reply, catchAllReply), slowDown: slowDownAsked(reply) };
}

/** Waits `ms`, or less when the probe is given up on (false then). */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort);
  });
}

function outcomeOfRcpt(reply: SmtpReply, catchAllReply: SmtpReply | null): ProbeOutcome {
  const meaning = classifySmtpReply(reply);
  if (meaning !== 'accepted') return withHint({ kind: meaning }, reply);
  if (!catchAllReply) return { kind: 'accepted', catchAll: null };
  const probeMeaning = classifySmtpReply(catchAllReply);
  // Only a definite answer about the made-up mailbox says whether the domain takes everything.
  const catchAll = probeMeaning === 'accepted' ? true : probeMeaning === 'mailbox_not_found' ? false : null;
  return { kind: 'accepted', catchAll };
}

/** A refusal before RCPT is about the session (our name, our address, our IP), never about the mailbox. */
function refusal(reply: SmtpReply): ProbeOutcome {
  return withHint({ kind: Math.floor(reply.code / 100) === 4 ? 'temp_fail' : 'blocked' }, reply);
}

/** A transient refusal keeps the wait it asked for, so that the answer arriving later asks again no sooner. */
function withHint(outcome: { kind: Exclude<SmtpReplyMeaning, 'accepted'> }, reply: SmtpReply): ProbeOutcome {
  const hint = retryHintMs(reply);
  return hint === null ? outcome : { ...outcome, retryAfterMs: hint };
}

/** EHLO, or HELO when the server does not know EHLO (RFC 5321 §4.1.4). */
async function sayHello(session: SmtpSession, heloName: string): Promise<SmtpReply> {
  const ehlo = await session.command(`EHLO ${heloName}`, 'EHLO');
  if (isPositive(ehlo) || Math.floor(ehlo.code / 100) === 4) return ehlo;
  return session.command(`HELO ${heloName}`, 'HELO');
}

function isPositive(reply: SmtpReply): boolean {
  return Math.floor(reply.code / 100) === 2;
}

/** RFC 5321 §4.1.1.1: each line after the first of the EHLO reply names an extension. */
function offers(ehlo: SmtpReply, extension: string): boolean {
  return new RegExp(`(^|\\s)${extension}(\\s|$)`, 'i').test(ehlo.text);
}

function isSocketError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException)?.code === 'string' || (error as Error)?.name === 'SmtpProtocolError';
}
