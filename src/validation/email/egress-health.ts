/**
 * Whether each egress reaches port 25: every `intervalMs`, a TCP connection through it to a known mail server (the
 * operator's SMTP_EGRESS_PROBE_HOST), the server's greeting read, then QUIT; no EHLO, no MAIL, nothing about anyone's
 * address. Any greeting, even a refusal (554), says port 25 is open on that path; a proxy that refuses by its rules, a
 * connection that fails or hangs says it is not. The verdict turns a probe's unreachable host into `egress_blocked`
 * (mailbox-probe.ts) and is shown by /readyz and /metrics. The target is resolved by the engine's own resolver and held
 * to the SSRF guard like any mail host: the proxy is asked for the checked address, never for the name.
 */
import net from 'node:net';
import { isPubliclyRoutableAddress } from './address-guard.js';
import { EgressError, type EgressReport, type EgressState, type MailEgress } from './mail-egress.js';
import { SmtpSession } from './smtp-session.js';

export interface EgressHealthDependencies {
  egresses: readonly { egress: MailEgress; providers: string[] }[];
  /** The mail server asked (a host name or an IP literal) and its port; null: never checked (`unchecked`). */
  target: { host: string; port: number } | null;
  /** The engine's resolver: a host's A/AAAA addresses, [] when it has none. */
  resolve(host: string): Promise<string[]>;
  allowPrivate: boolean;
  intervalMs: number;
  connectTimeoutMs: number;
  replyTimeoutMs: number;
  now: () => number;
  /** Told once per change of an egress's state: the service logs it. */
  onChange?: (report: EgressReport) => void;
}

const FAULT_STATE = { blocked: 'blocked', unavailable: 'unavailable', auth: 'auth_failed' } as const;

export class EgressHealth {
  private readonly states = new Map<MailEgress, { state: EgressState; since: number | null }>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<EgressReport[]> | null = null;

  constructor(private readonly deps: EgressHealthDependencies) {
    for (const { egress } of deps.egresses) this.states.set(egress, { state: 'unchecked', since: null });
  }

  state(egress: MailEgress): EgressState {
    return this.states.get(egress)?.state ?? 'unchecked';
  }

  /** Each egress's state; [] while nothing is configured (no proxy, no target): nothing to tell. */
  reports(): EgressReport[] {
    if (!this.deps.target && this.deps.egresses.every(({ egress }) => egress.name === 'direct')) return [];
    return this.deps.egresses.map(({ egress, providers }) => ({ name: egress.name, providers, ...this.states.get(egress)! }));
  }

  /** Checks every egress now (one check at a time: a caller during one waits for it). */
  checkAll(): Promise<EgressReport[]> {
    if (!this.deps.target) return Promise.resolve(this.reports());
    this.checking ??= Promise.all(this.deps.egresses.map(({ egress }) => this.check(egress)))
      .then(() => this.reports())
      .finally(() => { this.checking = null; });
    return this.checking;
  }

  /** A first check at once, then every `intervalMs`; nothing without a target. */
  start(): void {
    if (!this.deps.target || this.timer) return;
    void this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.deps.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async check(egress: MailEgress): Promise<void> {
    const ip = await this.targetAddress();
    // A target that does not resolve, or only to an address the guard refuses, says nothing of the egress.
    if (ip === null) return;
    this.set(egress, await this.greetingThrough(egress, ip));
  }

  private async targetAddress(): Promise<string | null> {
    const { host } = this.deps.target!;
    const addresses = net.isIP(host) ? [host] : await this.deps.resolve(host).catch(() => []);
    return addresses.find((ip) => this.deps.allowPrivate || isPubliclyRoutableAddress(ip)) ?? null;
  }

  private async greetingThrough(egress: MailEgress, ip: string): Promise<EgressState> {
    try {
      const { session } = await SmtpSession.open({
        host: ip, port: this.deps.target!.port, connectTimeoutMs: this.deps.connectTimeoutMs,
        replyTimeoutMs: this.deps.replyTimeoutMs, connect: egress.connect,
      });
      try {
        await session.command('QUIT', 'QUIT', Math.min(this.deps.replyTimeoutMs, 1000));
      } catch {
        // the greeting was the answer; a server slow to say goodbye changes nothing
      } finally {
        session.destroy();
      }
      return 'ok';
    } catch (error) {
      return error instanceof EgressError ? FAULT_STATE[error.fault] : 'blocked';
    }
  }

  private set(egress: MailEgress, state: EgressState): void {
    const kept = this.states.get(egress);
    if (kept?.state === state) return;
    this.states.set(egress, { state, since: this.deps.now() });
    const report = this.reports().find((r) => r.name === egress.name);
    if (report) this.deps.onChange?.(report);
  }
}
