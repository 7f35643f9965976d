/**
 * Mapping of answers the test service cannot be made to give (402, 403, 410, 5xx, an HTML page, a hung server) and
 * the retry rules around them, against a tiny local HTTP server scripted per test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APIError, ConflictError, ConnectionError, ContactValidator, ContactValidatorError, GoneError, InsufficientCreditsError,
  InvalidRequestError, NotFoundError, PermissionError, ServiceUnavailableError, TimeoutError,
} from '../src/index.js';

interface Seen { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang' | 'drop';

let server: http.Server;
let baseUrl: string;
let script: Answer[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = script.shift() ?? { status: 200, body: { ok: true } };
      if (answer === 'hang') return;
      if (answer === 'drop') return void req.socket.destroy();
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status, {
        'content-type': answer.status >= 400 ? 'application/problem+json' : 'application/json', ...answer.headers,
      }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  seen = [];
});

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  status, body: { type: `/problems/${code}`, title: code, status, request_id: 'req_test', ...extra },
});
const client = (options: Partial<ConstructorParameters<typeof ContactValidator>[0]> = {}) =>
  new ContactValidator({ apiKey: 'cv_live_test', baseUrl, initialRetryDelayMs: 10, ...options });

describe('error mapping', () => {
  it('When credits do not cover the request (402), then InsufficientCreditsError with balance and required, not retried', async () => {
    script = [problem(402, 'insufficient-credits', { balance: 1, required: 3, detail: 'needs 3' })];
    const error = await client().validate({ phone: '+14155550123' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ status: 402, balance: 1, required: 3, detail: 'needs 3', requestId: 'req_test' });
    expect((error as Error).message).toBe('402 needs 3 (request req_test)');
    expect(seen).toHaveLength(1);
  });

  it.each([
    [403, 'origin-not-allowed', PermissionError],
    [404, 'not-found', NotFoundError],
    [409, 'batch-not-ready', ConflictError],
    [410, 'batch-gone', GoneError],
    [400, 'invalid-json', InvalidRequestError],
    [413, 'payload-too-large', InvalidRequestError],
    [415, 'unsupported-media-type', InvalidRequestError],
    [422, 'invalid-csv', InvalidRequestError],
  ])('When the service answers %i %s, then the matching class', async (status, code, ErrorClass) => {
    script = [problem(status, code)];
    const error = await client().batches.get('b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ContactValidatorError);
    expect(error).toMatchObject({ status, code });
  });

  it('When a proxy answers an HTML 502, then APIError with a problem made from the status line', async () => {
    script = [{ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad gateway</html>' }];
    const error = await client({ maxRetries: 0 }).account().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).problem).toMatchObject({ type: 'about:blank', title: 'Bad Gateway', status: 502 });
  });

  it('When 503 is answered, then ServiceUnavailableError is also an APIError', async () => {
    script = [problem(503, 'database-unavailable'), problem(503, 'database-unavailable')];
    const error = await client({ maxRetries: 1 }).account().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toBeInstanceOf(APIError);
    expect(seen).toHaveLength(2);
  });
});

describe('retry rules', () => {
  it('When a GET answers 500, then it is retried', async () => {
    script = [problem(500, 'internal'), { status: 200, body: { batches: [] } }];
    expect(await client().batches.list()).toEqual([]);
    expect(seen).toHaveLength(2);
  });

  it('When a POST without an Idempotency-Key answers 500, then it is not retried', async () => {
    script = [problem(500, 'internal')];
    await expect(client().keys.create()).rejects.toBeInstanceOf(APIError);
    expect(seen).toHaveLength(1);
  });

  it('When a validate is retried, then every attempt carries the same generated Idempotency-Key', async () => {
    script = [problem(500, 'internal'), 'drop', problem(409, 'idempotency-key-in-use'), { status: 200, body: { credits: null } }];
    await client({ maxRetries: 3 }).validate({ email: 'a@example.com' });
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(seen).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen.every((s) => s.body === '{"email":"a@example.com"}')).toBe(true);
  });

  it('When two validates are sent, then their keys differ', async () => {
    const c = client();
    await c.validate({ email: 'a@example.com' });
    await c.validate({ email: 'a@example.com' });
    expect(seen[0].headers['idempotency-key']).not.toBe(seen[1].headers['idempotency-key']);
  });

  it('When a 409 is not about the Idempotency-Key, then it is not retried', async () => {
    script = [problem(409, 'batch-not-paused')];
    await expect(client().batches.resume('b')).rejects.toBeInstanceOf(ConflictError);
    expect(seen).toHaveLength(1);
  });

  it('When Retry-After is given, then the client waits that long', async () => {
    script = [{ ...problem(429, 'rate-limited'), headers: { 'retry-after': '1' } }];
    const started = Date.now();
    await client().account();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('When Retry-After is longer than the time left, then the error comes back at once', async () => {
    script = [{ ...problem(429, 'rate-limited'), headers: { 'retry-after': '60' } }];
    const started = Date.now();
    await expect(client({ timeoutMs: 5_000 }).account()).rejects.toMatchObject({ status: 429, retryAfter: 60 });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('When the request sends headers the client sets, then key, user agent and accept are there', async () => {
    await client({ userAgent: 'my-app/1.0' }).account();
    expect(seen[0].headers).toMatchObject({ authorization: 'Bearer cv_live_test', 'user-agent': 'my-app/1.0', accept: 'application/json' });
  });
});

describe('timeouts', () => {
  it('When the service never answers, then TimeoutError at the total timeout, retries included', async () => {
    script = ['hang', 'hang', 'hang'];
    const started = Date.now();
    const error = await client({ timeoutMs: 300 }).account().catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('When connections keep dropping, then retries stop at the total timeout', async () => {
    script = Array.from({ length: 50 }, () => 'drop' as const);
    const started = Date.now();
    const error = await client({ timeoutMs: 400, maxRetries: 50, initialRetryDelayMs: 20 }).account().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(seen.length).toBeGreaterThan(2);
  });

  it('When the caller aborts, then ConnectionError and no retry', async () => {
    script = ['hang'];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await client().account({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(1);
  });

  it('When a per-call timeout is given, then it overrides the client one', async () => {
    script = ['hang'];
    const started = Date.now();
    await expect(client({ timeoutMs: 30_000 }).account({ timeoutMs: 200 })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

it('When no API key is given, then the constructor refuses', () => {
  const saved = process.env.CONTACT_VALIDATOR_API_KEY;
  delete process.env.CONTACT_VALIDATOR_API_KEY;
  expect(() => new ContactValidator({})).toThrow(TypeError);
  if (saved !== undefined) process.env.CONTACT_VALIDATOR_API_KEY = saved;
});

it('When a streamed result is being read and the caller aborts, then the download stops', async () => {
  const controller = new AbortController();
  const slow = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/csv' }); res.write('a,b\r\n'); });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const c = new ContactValidator({ apiKey: 'k', baseUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, timeoutMs: 200 });
  const result = await c.batches.result('b', { signal: controller.signal });
  await new Promise((r) => setTimeout(r, 300)); // past timeoutMs: the deadline covers the headers only
  const reading = result.text();
  controller.abort();
  await expect(reading).rejects.toBeDefined();
  slow.closeAllConnections();
  await new Promise((resolve) => slow.close(resolve));
});
