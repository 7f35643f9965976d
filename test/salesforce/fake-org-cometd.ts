/**
 * The local org's streaming API (Change Data Capture Developer Guide; Streaming API Developer Guide, "Message Durability"):
 * CometD at `/cometd/<version>`, served by faye's own server side. The handshake and every connect need the session
 * (`Authorization: OAuth <token>`), answered as Salesforce does when it is not valid (`403::Handshake denied` with
 * `ext.sfdc.failureReason` `401::Authentication invalid` and `advice.reconnect: none`); the handshake says
 * `ext.replay: true`; a subscribe names where to start in `ext.replay` (`{channel: replayId}`: -1 new events only, -2
 * every retained one, N the events after N), and the retained events after it are delivered to that client alone.
 * Every create and update through the REST API publishes a change event (`ChangeEventHeader` with `entityName`,
 * `recordIds`, `changeType`, `changedFields` and `commitUser`, the user of the session that wrote) with a new replay id.
 */
import { createRequire } from 'node:module';
import type http from 'node:http';

interface FayeMessage {
  channel: string;
  clientId?: string;
  subscription?: string;
  successful?: boolean;
  error?: string;
  advice?: Record<string, unknown>;
  ext?: Record<string, any>;
  data?: unknown;
  id?: string;
}
type Callback = (message: FayeMessage) => void;
interface FayeAdapter {
  addExtension(ext: { incoming?: (m: FayeMessage, req: http.IncomingMessage, cb: Callback) => void; outgoing?: (m: FayeMessage, req: http.IncomingMessage, cb: Callback) => void }): void;
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): void;
  _server: { _engine: { publish(message: FayeMessage): void; _engine: MemoryEngine } };
}
/** faye's in-memory engine: a client's queue, sent at its next (or current) connect. */
interface MemoryEngine { _messages: Map<string, FayeMessage[]>; emptyQueue(clientId: string): void }
const faye = createRequire(import.meta.url)('faye') as { NodeAdapter: new (options: object) => FayeAdapter };

export const CHANGE_CHANNELS = { Contact: '/data/ContactChangeEvent', Lead: '/data/LeadChangeEvent' } as const;

export interface ChangeEvent {
  channel: string;
  replayId: number;
  payload: Record<string, unknown>;
}

export interface CometdOptions {
  /** The user a valid session belongs to, or null when the session is not valid. */
  userOf(token: string): string | null;
  /** How long a /meta/connect is held open when there is nothing to deliver (Salesforce: 110 s; tests: short). */
  connectTimeoutS?: number;
}

export function createCometd(options: CometdOptions) {
  const adapter = new faye.NodeAdapter({ mount: '/cometd', timeout: options.connectTimeoutS ?? 5 });
  const retained: ChangeEvent[] = [];
  let nextReplayId = 1000;
  const replayFrom = new Map<string, number>();
  const stats = { handshakes: 0, subscribes: [] as { channel: string; replayFrom: number | null }[], refused: 0 };

  const tokenOf = (req: http.IncomingMessage) => /^(?:OAuth|Bearer) (.+)$/.exec(req?.headers?.authorization ?? '')?.[1] ?? '';
  adapter.addExtension({
    incoming(message, req, callback) {
      if (message.channel === '/meta/handshake' || message.channel === '/meta/connect') {
        if (!options.userOf(tokenOf(req))) {
          stats.refused++;
          message.error = message.channel === '/meta/handshake' ? '403::Handshake denied' : '401::Authentication invalid';
          message.ext = { ...message.ext, sfdc: { failureReason: '401::Authentication invalid' } };
          return callback(message);
        }
        if (message.channel === '/meta/handshake') stats.handshakes++;
      }
      if (message.channel === '/meta/subscribe' && message.clientId && message.subscription) {
        const from = message.ext?.replay?.[message.subscription];
        stats.subscribes.push({ channel: message.subscription, replayFrom: typeof from === 'number' ? from : null });
        replayFrom.set(`${message.clientId} ${message.subscription}`, typeof from === 'number' ? from : -1);
      }
      callback(message);
    },
    outgoing(message, _req, callback) {
      if (message.channel === '/meta/handshake') {
        message.ext = { ...message.ext, replay: true, payload_format: true };
        // A refused session: no reconnecting with it (the client must sign in again).
        if (message.successful === false) message.advice = { reconnect: 'none', interval: 0 };
      }
      if (message.channel === '/meta/connect' && message.successful === false && message.error?.startsWith('401')) {
        message.advice = { reconnect: 'none', interval: 0 };
      }
      if (message.channel === '/meta/subscribe' && message.successful && message.clientId && message.subscription) {
        const key = `${message.clientId} ${message.subscription}`;
        const from = replayFrom.get(key) ?? -1;
        replayFrom.delete(key);
        const channel = message.subscription;
        const backlog = from === -1 ? [] : retained.filter((e) => e.channel === channel && (from === -2 || e.replayId > from));
        const clientId = message.clientId;
        // After the subscribe's answer: the client knows the channel by the time the events come.
        if (backlog.length) setTimeout(() => queueFor(clientId, backlog.map(asMessage)), 20);
      }
      callback(message);
    },
  });

  /** Messages for one client only (a replay), queued as faye queues what is published to it. */
  const queueFor = (clientId: string, messages: FayeMessage[]) => {
    const memory = adapter._server._engine._engine;
    memory._messages.set(clientId, [...(memory._messages.get(clientId) ?? []), ...messages]);
    memory.emptyQueue(clientId);
  };

  const asMessage = (e: ChangeEvent): FayeMessage => ({
    channel: e.channel, data: { schema: `${e.channel.slice(6)}-schema`, payload: e.payload, event: { replayId: e.replayId } },
  });

  return {
    stats,
    retained,
    handle: (req: http.IncomingMessage, res: http.ServerResponse) => adapter.handle(req, res),
    /** A change of records of one object, as one transaction committed by `commitUser`. */
    publish(object: keyof typeof CHANGE_CHANNELS, changeType: 'CREATE' | 'UPDATE', recordIds: string[], fields: Record<string, unknown>, commitUser: string, at: number, origin: string | null = null) {
      const event: ChangeEvent = {
        channel: CHANGE_CHANNELS[object],
        replayId: ++nextReplayId,
        payload: {
          ChangeEventHeader: {
            entityName: object, recordIds, changeType, changeOrigin: `com/salesforce/api/rest/62.0${origin ? `;${origin}` : ''}`,
            transactionKey: `${nextReplayId.toString(16)}-txn`, sequenceNumber: 1, commitTimestamp: at, commitNumber: nextReplayId,
            commitUser, changedFields: changeType === 'UPDATE' ? Object.keys(fields) : [], diffFields: [], nulledFields: [],
          },
          ...(changeType === 'CREATE' ? fields : Object.fromEntries(Object.entries(fields).filter(([k]) => k !== 'Id'))),
        },
      };
      retained.push(event);
      adapter._server._engine.publish(asMessage(event));
      return event;
    },
    close: () => adapter.close(),
  };
}

export type Cometd = ReturnType<typeof createCometd>;
