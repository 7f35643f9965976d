/** Local DNS + SMTP servers and engines wired to them, with short time-outs; `close()` shuts everything down. */
import { createEmailEngine, loadEmailLists, type EmailEngineOptions, type EmailLists } from '../../src/validation/email/index.js';
import { startLocalDnsServer, type LocalDnsServer, type LocalDnsServerOptions, type ZoneEntry } from './local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer, type RcptScript } from './local-smtp-server.js';

export interface EmailTestRig {
  dnsServer: LocalDnsServer;
  smtpServer: LocalSmtpServer;
  engine(overrides?: Partial<EmailEngineOptions>): ReturnType<typeof createEmailEngine>;
  close(): Promise<void>;
}

let sharedLists: EmailLists | undefined;

/**
 * A canary of the resolver health check (resolver-health.ts), as on the real Internet: gmail.com exists. Without it
 * the engine would take the test resolver for one that denies every name, and no NXDOMAIN would be believed.
 */
export const CANARY_ZONE: Record<string, ZoneEntry> = {
  'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', priority: 5 }] },
};

export async function startEmailTestRig(
  zone: Record<string, ZoneEntry>,
  script: RcptScript,
  options: { startTls?: boolean; now?: () => number; dns?: LocalDnsServerOptions } = {},
): Promise<EmailTestRig> {
  sharedLists ??= loadEmailLists();
  const lists = sharedLists;
  const dnsServer = await startLocalDnsServer({ ...CANARY_ZONE, ...zone }, options.dns);
  const smtpServer = await startLocalSmtpServer(script, { startTls: options.startTls });
  const engines: Array<{ close(): Promise<void> }> = [];
  return {
    dnsServer,
    smtpServer,
    engine(overrides = {}) {
      const created = createEmailEngine({
        networkChecks: true,
        dnsServers: [dnsServer.address],
        smtpPort: smtpServer.port,
        allowPrivate: true,
        // The local DNS server serves `.test` and example.com names, as RFC 6761 §6.2 lets a private test network.
        specialUseNamesOrdinary: true,
        heloName: 'verifier.test',
        mailFrom: 'verify@verifier.test',
        lists,
        dnsTimeoutMs: 300,
        connectTimeoutMs: 300,
        replyTimeoutMs: 1000,
        probeTimeoutMs: 3000,
        ...(options.now ? { now: options.now } : {}),
        ...overrides,
      });
      engines.push(created);
      return created;
    },
    async close() {
      await Promise.all(engines.map((e) => e.close()));
      await smtpServer.close();
      await dnsServer.close();
    },
  };
}
