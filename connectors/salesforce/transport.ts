/**
 * jsforce's HTTP transport, carried by the fetch the core hands the plugin (the outbound guard) instead of jsforce's own
 * node-fetch: jsforce 3.10.16 takes no agent nor fetch of ours, and follows redirects itself, sending the
 * Authorization header on to wherever a Location points. Installed on the connection and on its OAuth2 client (the
 * grant and every refresh), every call goes through the guard; a redirect is the guard's refusal, not a new request.
 */
import type { Connection, HttpRequest, HttpRequestOptions, HttpResponse } from 'jsforce';
import { createHttpRequestHandlerStreams } from 'jsforce/lib/request-helper.js';
import { StreamPromise } from 'jsforce/lib/util/promise.js';
import { Readable } from 'node:stream';
import { refusalIn, type PlatformFetch } from '../../src/sync/plugin.js';

type Transport = Connection['_transport'];

/** What jsforce's node-fetch transport raised for a request that got no answer; the client's retries key on the name. */
class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(message: string, readonly code: string | undefined, options: ErrorOptions) {
    super(message, options);
  }
}

function bodyOf(req: HttpRequest): string | Buffer | undefined {
  const body = req.body as unknown;
  if (body === undefined || body === null || !/^(post|put|patch)$/i.test(req.method)) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  // form-data (multipart uploads): jsforce sends its buffer.
  const form = body as { getBuffer?: () => Buffer };
  if (typeof form.getBuffer === 'function') return form.getBuffer();
  throw new TypeError('a streamed request body is not supported');
}

/** One request as jsforce's `request()` makes it: a duplex that emits `response`, then the body, then `complete`. */
function fetchRequest(fetch: PlatformFetch, req: HttpRequest, options: HttpRequestOptions) {
  const { input, output, stream } = createHttpRequestHandlerStreams(req, options);
  input.resume(); // the body is sent from `req.body`; jsforce's copy into `input` is drained
  void (async () => {
    try {
      const res = await fetch(req.url, { method: req.method, headers: req.headers, body: bodyOf(req) });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => { headers[name.toLowerCase()] = value; });
      stream.emit('response', { statusCode: res.status, headers });
      if (res.body) Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).on('error', (e) => stream.emit('error', e)).pipe(output);
      else output.end();
    } catch (err) {
      const refused = refusalIn(err);
      if (refused) return stream.emit('error', refused);
      const cause = (err as Error).cause as (Error & { code?: string }) | undefined;
      stream.emit('error', new FetchError(`request to ${new URL(req.url).origin} failed, reason: ${cause?.message ?? (err as Error).message}`, cause?.code, { cause: err }));
    }
  })();
  return stream;
}

export function guardedTransport(fetch: PlatformFetch): Transport {
  return {
    httpRequest(req: HttpRequest, options: HttpRequestOptions = {}) {
      return StreamPromise.create(() => {
        const stream = fetchRequest(fetch, req, options);
        const promise = new Promise<HttpResponse>((resolve, reject) => {
          stream.on('complete', (res: HttpResponse) => resolve(res)).on('error', reject);
        });
        return { stream, promise };
      });
    },
  } as unknown as Transport;
}

/** Every request of `conn` (its API calls, its OAuth2 grant and refreshes) through `fetch`. */
export function useGuardedTransport(conn: Connection, fetch: PlatformFetch): void {
  const transport = guardedTransport(fetch);
  conn._transport = transport;
  conn.oauth2._transport = transport;
}
