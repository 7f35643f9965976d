/**
 * CometD's long-polling, carried by the fetch the core hands the plugin (the outbound guard), for the faye client that
 * jsforce's streaming API builds: faye's own Node transport calls http.request itself, where no guard would see where
 * the instance's name resolves. Installed on a faye client before its handshake, it replaces faye's choice of
 * transport (the server's `supportedConnectionTypes` would pick faye's own again), keeps Salesforce's load-balancer
 * cookie (BAYEUX_BROWSER), and aborts a request when faye gives up on it.
 */
import { createRequire } from 'node:module';
import type { PlatformFetch } from '../../src/sync/plugin.js';

const require = createRequire(import.meta.url);
/** faye's classes (no types are published): its Class helper and the Node HTTP transport this one extends. */
const Class = require('faye/src/util/class') as (parent: object, methods: object) => new (...args: unknown[]) => object;
const NodeHttp = require('faye/src/transport/node_http') as object;

interface FayeDispatcher {
  endpoint: object;
  headers: Record<string, string>;
  _transport?: unknown;
  connectionType?: string;
  selectTransport(types: string[]): void;
}
interface FayeTransport {
  endpoint: { href: string };
  _dispatcher: FayeDispatcher;
  encode(messages: unknown[]): string;
  _receive(replies: unknown): void;
  _handleError(messages: unknown[]): void;
  _getCookies(): string;
  _storeCookies(setCookie: string[] | undefined): void;
}

/** How long one long-poll may take before it counts as lost (Salesforce holds a connect up to 110 s). */
const REQUEST_TIMEOUT_MS = 130_000;

function guardedLongPolling(fetch: PlatformFetch) {
  return Class(NodeHttp, {
    // One message a request, as jsforce sets faye's own transport: Salesforce's server refuses some batches.
    batching: false,
    request(this: FayeTransport, messages: unknown[]) {
      const aborted = new AbortController();
      const cookie = this._getCookies();
      const headers: Record<string, string> = { 'content-type': 'application/json', ...this._dispatcher.headers, ...(cookie ? { cookie } : {}) };
      void fetch(this.endpoint.href, {
        method: 'POST', headers, body: this.encode(messages),
        signal: AbortSignal.any([aborted.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      }).then(async (res) => {
        this._storeCookies(res.headers.getSetCookie());
        let replies: unknown = null;
        try { replies = res.ok ? await res.json() : null; } catch { replies = null; }
        if (replies) this._receive(replies);
        else this._handleError(messages);
      }, () => this._handleError(messages));
      return { abort: () => aborted.abort() };
    },
  });
}

/** Every CometD request of `fayeClient` through `fetch`. */
export function useGuardedCometd(fayeClient: { _dispatcher: FayeDispatcher }, fetch: PlatformFetch): void {
  const Transport = guardedLongPolling(fetch);
  const dispatcher = fayeClient._dispatcher;
  dispatcher.selectTransport = function selectTransport(this: FayeDispatcher) {
    if (this._transport instanceof Transport) return;
    this._transport = new Transport(this, this.endpoint);
    this.connectionType = 'long-polling';
  };
  dispatcher._transport = undefined;
  dispatcher.selectTransport(['long-polling']);
}
