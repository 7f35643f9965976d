/**
 * Per-server manners (issue 54.3): a mail host that says we come too often (`421` at any stage, RFC 5321 §3.8; an
 * RFC 3463 `4.7.x` refusal that is about us rather than a greylisted recipient) is slowed down for every address: the
 * next probe to it waits until the slow-down is over (or answers `throttled` when that is longer than a probe may
 * wait), and while it lasts only one connection to it is open at a time. Each refusal in a row doubles the wait (from
 * `baseMs`, at most `maxMs`), or takes the server's own "try again in N" when that is longer; each answer it gives
 * halves the level again. States learnt elsewhere (another instance, through the database) are taken with `learn`.
 */
import { retryHintMs } from './smtp-reply-classifier.js';
import type { SmtpReply } from './smtp-reply-classifier.js';

export interface HostMannersState {
  /** The mail host's address (what the probe connects to). */
  host: string;
  /** Until when (epoch ms) no probe connects to it. */
  slowUntil: number;
  /** Refusals in a row, less the answers since: the exponent of the next wait. */
  level: number;
}

export interface HostMannersOptions {
  baseMs: number;
  maxMs: number;
  now: () => number;
  /** Told of each change this instance makes (a refusal, a recovery): the service shares it with the fleet. */
  onChange?: (state: HostMannersState) => void;
}

/** Hosts remembered at most; the oldest are forgotten first. */
const MAX_HOSTS = 10_000;
/** Texts of a 4.7.x that speak of the recipient's greylisting: about one address, not about how often we come. */
const GREYLIST_TEXT = /grey|gray/i;

/** Whether a reply tells us to come less often to this host, and the wait it asks for (null: none said). */
export function slowDownAsked(reply: SmtpReply): { hintMs: number | null } | null {
  const tooOften = reply.code === 421 || (Math.floor(reply.code / 100) === 4 && /^4\.7\./.test(reply.enhanced ?? '') && !GREYLIST_TEXT.test(reply.text));
  return tooOften ? { hintMs: retryHintMs(reply) } : null;
}

export class HostManners {
  private readonly hosts = new Map<string, HostMannersState>();
  /** Slow-downs this instance decided since start (a metric). */
  slowdowns = 0;

  constructor(private readonly options: HostMannersOptions) {}

  /** How long a probe to `host` must wait before it connects; 0: at once. */
  waitMs(host: string): number {
    const state = this.hosts.get(host);
    return state ? Math.max(0, state.slowUntil - this.options.now()) : 0;
  }

  /** Connections to `host` allowed at once: one while it is slowed down (or recovering), else `normal`. */
  concurrencyFor(host: string, normal: number): number {
    return (this.hosts.get(host)?.level ?? 0) > 0 ? 1 : normal;
  }

  refused(host: string, hintMs: number | null): void {
    const level = Math.min((this.hosts.get(host)?.level ?? 0) + 1, 30);
    const { baseMs, maxMs } = this.options;
    const wait = Math.min(Math.max(baseMs * 2 ** (level - 1), hintMs ?? 0), maxMs);
    this.slowdowns++;
    this.set({ host, level, slowUntil: this.options.now() + wait }, true);
  }

  /** The host answered (any reply but a slow-down): one level back towards normal. */
  answered(host: string): void {
    const state = this.hosts.get(host);
    if (!state || state.level === 0) return;
    this.set({ ...state, level: state.level - 1 }, true);
  }

  /** A state another instance decided: taken when it slows the host longer than we know of, or is newer news. */
  learn(state: HostMannersState): void {
    const known = this.hosts.get(state.host);
    if (known && known.slowUntil >= state.slowUntil && known.level >= state.level) return;
    this.set(state, false);
  }

  /** Hosts slowed down now, longest wait first (the metrics, /readyz). */
  slowed(): HostMannersState[] {
    const now = this.options.now();
    return [...this.hosts.values()].filter((s) => s.slowUntil > now).sort((a, b) => b.slowUntil - a.slowUntil);
  }

  private set(state: HostMannersState, ours: boolean): void {
    this.hosts.delete(state.host);
    if (state.level > 0 || state.slowUntil > this.options.now()) this.hosts.set(state.host, state);
    if (this.hosts.size > MAX_HOSTS) this.hosts.delete(this.hosts.keys().next().value as string);
    if (ours) this.options.onChange?.(state);
  }
}
