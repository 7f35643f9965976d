/** A real SMTP server on 127.0.0.1 (smtp-server) whose replies to RCPT TO are scripted per address or domain. */
import { SMTPServer } from 'smtp-server';

export interface ScriptedReply {
  code: number;
  /** Sent after the code: put an RFC 3463 enhanced code first when the scenario needs one. */
  message: string;
}

/**
 * `delayMs`: accept, but only after that long (a slow server). `greylistFirst`: 451 the first time, then accept.
 * `greylistForMs`: 451 "try again in N seconds" until that long after the address was first asked (RFC 6647 §2.1, as
 * postgrey and most greylisting servers do), then accept.
 */
export type ScriptedRule = ScriptedReply | 'accept' | { delayMs: number } | { greylistFirst: true } | { greylistForMs: number };

export interface RcptScript {
  /** Reply for an exact address, then for any address at a domain; default: 550 5.1.1 for unknown. */
  byAddress?: Record<string, ScriptedRule>;
  byDomain?: Record<string, ScriptedRule>;
}

export interface LocalSmtpServer {
  port: number;
  /** Every RCPT TO address the server was given, in order. */
  recipients: string[];
  /** Every MAIL FROM, with the EHLO/HELO name its session gave, in order: the identity an egress shows. */
  senders: { helo: string; mailFrom: string }[];
  connections: number;
  /** Most connections open at the same time. */
  maxConcurrent: number;
  /** Whether each session was on TLS when RCPT arrived. */
  secureRcpts: boolean[];
  close(): Promise<void>;
}

export async function startLocalSmtpServer(script: RcptScript, options: { startTls?: boolean } = {}): Promise<LocalSmtpServer> {
  const state = { recipients: [] as string[], senders: [] as { helo: string; mailFrom: string }[], connections: 0, secureRcpts: [] as boolean[], open: 0, maxConcurrent: 0 };
  const greylisted = new Set<string>();
  const firstAsked = new Map<string, number>();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    // No reverse DNS of the client: the tests have no resolver but their own.
    disableReverseLookup: true,
    disabledCommands: options.startTls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    onConnect(_session, callback) {
      state.connections += 1;
      state.open += 1;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.open);
      callback();
    },
    onClose() {
      state.open -= 1;
    },
    onMailFrom(address, session, callback) {
      state.senders.push({ helo: session.hostNameAppearsAs, mailFrom: address.address });
      callback();
    },
    onRcptTo(address, session, callback) {
      const recipient = address.address;
      state.recipients.push(recipient);
      state.secureRcpts.push(Boolean(session.secure));
      const domain = recipient.split('@')[1];
      const rule = script.byAddress?.[recipient] ?? script.byDomain?.[domain];
      const reply = (r: ScriptedReply | 'accept' | undefined) => {
        if (r === 'accept') return callback();
        const { code, message } = r ?? { code: 550, message: '5.1.1 User unknown' };
        return callback(Object.assign(new Error(message), { responseCode: code }));
      };
      if (rule && typeof rule === 'object' && 'greylistFirst' in rule) {
        const seenBefore = greylisted.has(recipient);
        greylisted.add(recipient);
        return reply(seenBefore ? 'accept' : { code: 451, message: '4.7.1 Greylisted, try again in a minute' });
      }
      if (rule && typeof rule === 'object' && 'greylistForMs' in rule) {
        const first = firstAsked.get(recipient) ?? Date.now();
        firstAsked.set(recipient, first);
        const left = first + rule.greylistForMs - Date.now();
        return reply(left <= 0 ? 'accept' : { code: 451, message: `4.7.1 Greylisted, try again in ${Math.ceil(rule.greylistForMs / 1000)} seconds` });
      }
      if (rule && typeof rule === 'object' && 'delayMs' in rule) {
        setTimeout(() => reply('accept'), rule.delayMs);
        return;
      }
      reply(rule as ScriptedReply | 'accept' | undefined);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    port,
    get recipients() { return state.recipients; },
    get senders() { return state.senders; },
    get connections() { return state.connections; },
    get maxConcurrent() { return state.maxConcurrent; },
    get secureRcpts() { return state.secureRcpts; },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
