/**
 * The service the feedback tests talk to: a resolver and an SMTP server on 127.0.0.1 where `mail.test` has the
 * mailboxes given and `catchall.test` accepts any local part.
 */
import { CANARY_ZONE } from './email-test-rig.js';
import { startLocalDnsServer } from './local-dns-server.js';
import { startLocalSmtpServer } from './local-smtp-server.js';
import type { TestDatabase } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const ZONE = {
  ...CANARY_ZONE,
  'mail.test': { MX: [{ exchange: 'mx.mail.test', priority: 10 }] },
  'mx.mail.test': { A: ['127.0.0.1'] },
  'catchall.test': { MX: [{ exchange: 'mx.catchall.test', priority: 10 }] },
  'mx.catchall.test': { A: ['127.0.0.1'] },
};

export async function startFeedbackService(database: TestDatabase, mailboxes: string[]) {
  const dns = await startLocalDnsServer(ZONE);
  const smtp = await startLocalSmtpServer({
    byAddress: Object.fromEntries(mailboxes.map((m) => [m, 'accept' as const])), byDomain: { 'catchall.test': 'accept' },
  });
  const service = await startTestService(await database.create(), {
    EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port),
    EMAIL_SMTP_ALLOW_PRIVATE: 'true', EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'true',
  });
  return {
    service,
    async close() {
      await service.close();
      await database.dropAll();
      await Promise.all([smtp.close(), dns.close()]);
    },
  };
}
