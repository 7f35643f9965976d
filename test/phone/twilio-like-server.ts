/**
 * A local stand-in for Twilio Lookup v2 on 127.0.0.1 (port 0), answering in the documented format
 * (test/fixtures/phone/provider-fixtures/twilio_lookup_v2_*.json). Each test sets `respond` per number.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fixture = (name: string) => JSON.parse(readFileSync(
  fileURLToPath(new URL(`../fixtures/phone/provider-fixtures/${name}`, import.meta.url)), 'utf8')) as Record<string, unknown>;

export const TWILIO_VALID_FIXTURE = fixture('twilio_lookup_v2_lti.json');
export const TWILIO_INVALID_FIXTURE = fixture('twilio_lookup_v2_invalid.json');

export interface TwilioLikeReply {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A documented 200 answer for `e164` with the given line type intelligence. */
export function lineTypeAnswer(e164: string, type: string, carrierName: string | null = 'Test Carrier', errorCode: number | null = null) {
  return {
    ...TWILIO_VALID_FIXTURE,
    phone_number: e164,
    url: `https://lookups.twilio.com/v2/PhoneNumbers/${e164}`,
    line_type_intelligence: { error_code: errorCode, mobile_country_code: '310', mobile_network_code: '260', carrier_name: carrierName, type },
  };
}

export interface TwilioLikeServer {
  baseUrl: string;
  requests: { number: string; url: string; authorization: string | undefined }[];
  respond: (number: string, request: IncomingMessage) => TwilioLikeReply;
  close(): Promise<void>;
}

export async function startTwilioLikeServer(): Promise<TwilioLikeServer> {
  const timers = new Set<NodeJS.Timeout>();
  const state: TwilioLikeServer = {
    baseUrl: '',
    requests: [],
    respond: (number) => ({ body: lineTypeAnswer(number, 'mobile') }),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(url.pathname);
    if (request.method !== 'GET' || !match) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20404, message: 'not found', status: 404 }));
      return;
    }
    const number = decodeURIComponent(match[1]);
    state.requests.push({ number, url: request.url ?? '', authorization: request.headers.authorization });
    const reply = state.respond(number, request);
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.text ?? JSON.stringify(reply.body ?? {}));
    };
    if (!reply.delayMs) return send();
    const timer = setTimeout(() => { timers.delete(timer); send(); }, reply.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Twilio's documented 429 body (code 20429). */
export const rateLimited = (retryAfter?: string): TwilioLikeReply => ({
  status: 429,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { code: 20429, message: 'Too Many Requests', more_info: 'https://www.twilio.com/docs/errors/20429', status: 429 },
});
