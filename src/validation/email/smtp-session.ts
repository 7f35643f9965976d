/**
 * One SMTP client connection (RFC 5321) on node:net, upgraded with STARTTLS (RFC 3207) when offered. It only reads
 * replies and sends commands: what to say is the probe's business. Every wait has a time limit, and no command can
 * carry a CR, LF or other control character, so nothing can be smuggled onto the wire (RFC 5321 §2.3.8).
 */
import net from 'node:net';
import tls from 'node:tls';
import { connectDirectly } from './mail-egress.js';
import type { SmtpReply } from './smtp-reply-classifier.js';

export class SmtpTimeoutError extends Error {
  constructor(readonly waitingFor: string) {
    super(`SMTP: no ${waitingFor} in time`);
    this.name = 'SmtpTimeoutError';
  }
}

export class SmtpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmtpProtocolError';
  }
}

/** RFC 5321 §4.5.3.1.5: a reply line is at most 512 octets; we allow slack but not unbounded memory. */
const MAX_REPLY_LINE = 2048;
const MAX_REPLY_LINES = 64;
const FORBIDDEN_IN_COMMAND = /[\u0000-\u001f\u007f]/;
const REPLY_LINE = /^(\d{3})([ -]?)(.*)$/;
/** RFC 2034 §4: the enhanced code leads the text of each line. */
const ENHANCED_CODE = /^([245]\.\d{1,3}\.\d{1,3})(?:\s|$)/;

export interface SmtpSessionOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  replyTimeoutMs: number;
  /** Opens the TCP connection (an egress: mail-egress.ts); default: straight from this host. */
  connect?: (host: string, port: number, timeoutMs: number) => Promise<net.Socket>;
}

export class SmtpSession {
  private socket: net.Socket;
  private buffer = '';
  private lines: string[] = [];
  private waiter: (() => void) | null = null;
  private failure: Error | null = null;

  private constructor(socket: net.Socket, private readonly replyTimeoutMs: number) {
    this.socket = socket;
    this.listen(socket);
  }

  /** Connects and reads the greeting (RFC 5321 §3.1). */
  static async open(options: SmtpSessionOptions): Promise<{ session: SmtpSession; greeting: SmtpReply }> {
    const socket = await connectWithTimeout(options);
    const session = new SmtpSession(socket, options.replyTimeoutMs);
    try {
      const greeting = await session.readReply('greeting');
      return { session, greeting };
    } catch (error) {
      session.destroy();
      throw error;
    }
  }

  async command(line: string, waitingFor = line.split(' ')[0], timeoutMs = this.replyTimeoutMs): Promise<SmtpReply> {
    if (FORBIDDEN_IN_COMMAND.test(line)) throw new SmtpProtocolError('refusing to send a control character');
    this.socket.write(`${line}\r\n`);
    return this.readReply(waitingFor, timeoutMs);
  }

  /**
   * RSET and QUIT once the answer is known (RFC 5321 §4.1.1.5, §4.1.1.10): manners, not evidence, so they wait at
   * most `timeoutMs` and never fail.
   */
  async closePolitely(timeoutMs: number): Promise<void> {
    try {
      await this.command('RSET', 'RSET', timeoutMs);
      await this.command('QUIT', 'QUIT', timeoutMs);
    } catch {
      // the server may close first; nothing to learn from it
    } finally {
      this.destroy();
    }
  }

  /** RFC 3207 §4: after "220 ready" the TLS handshake starts; the session state is reset (EHLO again). */
  async startTls(servername: string, handshakeTimeoutMs: number): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      // Opportunistic TLS (RFC 7435): the probe sends no secrets, so an unverifiable certificate is no reason to stop.
      const socket = tls.connect({ socket: plain, servername: net.isIP(servername) ? undefined : servername, rejectUnauthorized: false });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpTimeoutError('TLS handshake'));
      }, handshakeTimeoutMs);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    this.socket = secure;
    this.buffer = '';
    this.lines = [];
    this.listen(secure);
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Ends the conversation at once: the pending wait fails with `reason`. */
  abort(reason: Error): void {
    this.fail(reason);
    this.destroy();
  }

  private listen(socket: net.Socket): void {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, newline).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(newline + 1);
      }
      if (this.buffer.length > MAX_REPLY_LINE || this.lines.length > MAX_REPLY_LINES) {
        this.fail(new SmtpProtocolError('reply too long'));
      }
      this.wake();
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new SmtpProtocolError('connection closed')));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  /** RFC 5321 §4.2.1: "ddd-text" lines continue a reply, "ddd text" ends it. */
  private async readReply(waitingFor: string, timeoutMs = this.replyTimeoutMs): Promise<SmtpReply> {
    const deadline = Date.now() + timeoutMs;
    const collected: string[] = [];
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        const match = REPLY_LINE.exec(line);
        if (!match) throw new SmtpProtocolError(`not an SMTP reply: ${line.slice(0, 80)}`);
        collected.push(match[3]);
        if (match[2] !== '-') return toReply(Number(match[1]), collected);
        if (collected.length > MAX_REPLY_LINES) throw new SmtpProtocolError('reply too long');
        continue;
      }
      if (this.failure) throw this.failure;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new SmtpTimeoutError(waitingFor);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = null;
          resolve();
        }, remaining);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

function toReply(code: number, texts: string[]): SmtpReply {
  const enhanced = ENHANCED_CODE.exec(texts[0] ?? '')?.[1] ?? null;
  const text = texts.map((t) => (enhanced && t.startsWith(enhanced) ? t.slice(enhanced.length).trim() : t)).join(' ');
  return { code, enhanced: Math.floor(code / 100) === Number(enhanced?.[0]) ? enhanced : null, text };
}

/** The egress's connection; its time-out (ETIMEDOUT) is the session's SmtpTimeoutError, as for any other wait. */
async function connectWithTimeout(options: SmtpSessionOptions): Promise<net.Socket> {
  const connect = options.connect ?? connectDirectly;
  try {
    return await connect(options.host, options.port, options.connectTimeoutMs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw new SmtpTimeoutError('connection');
    throw error;
  }
}
