/** Local DNS + SMTP servers and engines wired to them, with short time-outs; `close()` shuts everything down. */
import { createEmailEngine, loadEmailLists, type EmailEngineOptions, type EmailLists } from '../../src/validation/email/index.js';
import { startLocalDnsServer, type LocalDnsServer, type ZoneEntry } from './local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer, type RcptScript } from './local-smtp-server.js';

export interface EmailTestRig {
  dnsServer: LocalDnsServer;
  smtpServer: LocalSmtpServer;
  engine(overrides?: Partial<EmailEngineOptions>): ReturnType<typeof createEmailEngine>;
  close(): Promise<void>;
}

let sharedLists: EmailLists | undefined;

export async function startEmailTestRig(
  zone: Record<string, ZoneEntry>,
  script: RcptScript,
  options: { startTls?: boolean; now?: () => number } = {},
): Promise<EmailTestRig> {
  sharedLists ??= loadEmailLists();
  const lists = sharedLists;
  const dnsServer = await startLocalDnsServer(zone);
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
