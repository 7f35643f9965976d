/**
 * Change Data Capture for Contact and Lead (Change Data Capture Developer Guide) through jsforce's streaming client:
 * CometD over faye, on `/data/ContactChangeEvent` and `/data/LeadChangeEvent`, from the replay id the core kept (-1,
 * new events only, the first time). An event names the records a transaction created or changed
 * (`ChangeEventHeader.recordIds`); they are read whole (an update's event carries only the changed fields) and handed to
 * the core a batch at a time. Events of our own write-backs (`commitUser` is the connector's user and `changeOrigin`
 * names our client, which every write-back sends in `Sforce-Call-Options`) are skipped, so a verdict written never
 * comes back to be checked. A dropped connection, a refused session or a gap Salesforce could not fill ends the stream:
 * the core falls back to its schedule and subscribes again from the last replay id, within the 72 hours Salesforce keeps events.
 */
import { useGuardedCometd } from './cometd-transport.js';
import type { ChangeStream, PlatformFetch, PlatformRecord, StreamHandlers, StreamPosition } from '../../src/sync/plugin.js';
import type { SalesforceClient } from './client.js';
import { CALL_OPTIONS_CLIENT, contactOf, keyOf, readFieldsOf, type SalesforceObject, type SalesforceRecord } from './mapping.js';

export const channelOf = (object: SalesforceObject) => `/data/${object}ChangeEvent`;

/** Salesforce's replay id for "only events from now on". */
const NEW_EVENTS_ONLY = -1;
/** Events arriving this close together are read as one batch (one query per object). */
const BATCH_WINDOW_MS = 150;
/** A subscription not acknowledged within this time is a stream that does not work. */
const SUBSCRIBE_TIMEOUT_MS = 20_000;
/** Ids per query (a SOQL statement's length stays far under its 100,000-character limit). */
const IDS_PER_QUERY = 200;

interface ChangeEventHeader {
  entityName: string;
  recordIds: string[];
  changeType: string;
  changeOrigin?: string;
  commitUser?: string;
}
interface ChangeMessage { payload?: { ChangeEventHeader?: ChangeEventHeader }; event?: { replayId?: number } }
interface FayeMessage { channel: string; successful?: boolean; error?: string; ext?: Record<string, unknown>; advice?: { reconnect?: string } }
interface FayeClient {
  _dispatcher: Parameters<typeof useGuardedCometd>[0]['_dispatcher'];
  subscribe(channel: string, callback: (message: ChangeMessage) => void): PromiseLike<unknown> & { cancel(): void };
  on(event: 'transport:down' | 'transport:up', listener: () => void): void;
  disconnect(): void;
}

export interface ListenOptions {
  objects: readonly SalesforceObject[];
  fetch: PlatformFetch;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Whether an event is one our own write-back caused. */
export function isOwnWrite(header: ChangeEventHeader, ownUser: string | null): boolean {
  return ownUser !== null && header.commitUser === ownUser && (header.changeOrigin ?? '').includes(CALL_OPTIONS_CLIENT);
}

export async function listenForChanges(
  client: SalesforceClient, options: ListenOptions, from: StreamPosition, handlers: StreamHandlers,
): Promise<ChangeStream> {
  const channels = new Map(options.objects.map((o) => [channelOf(o), o]));
  const position: Record<string, number> = {};
  for (const channel of channels.keys()) {
    const replayId = from[channel];
    position[channel] = typeof replayId === 'number' && Number.isInteger(replayId) ? replayId : NEW_EVENTS_ONLY;
  }
  let closed = false;
  let fayeClient: FayeClient | null = null;
  const drop = (reason: string) => {
    if (closed) return;
    closed = true;
    fayeClient?.disconnect();
    handlers.onDrop(reason);
  };

  const extension = {
    // Where each channel starts: the replay extension of Salesforce's CometD (`ext.replay` on the subscribe).
    outgoing(message: FayeMessage, callback: (m: FayeMessage) => void) {
      if (message.channel === '/meta/subscribe') message.ext = { ...message.ext, replay: { ...position } };
      callback(message);
    },
    // A refused handshake or connect (the session expired): no reconnecting with it.
    incoming(message: FayeMessage, callback: (m: FayeMessage) => void) {
      if ((message.channel === '/meta/handshake' || message.channel === '/meta/connect') && message.successful === false) {
        drop(`the streaming API refused the session (${message.error ?? 'no reason given'})`);
        return;
      }
      callback(message);
    },
  };
  fayeClient = client.conn.streaming.createClient([extension]) as unknown as FayeClient;
  useGuardedCometd(fayeClient, options.fetch);
  fayeClient.on('transport:down', () => drop('the streaming connection dropped'));

  let pending: ChangeMessage[] = [];
  let timer: NodeJS.Timeout | null = null;
  let working: Promise<void> = Promise.resolve();
  const flush = () => {
    timer = null;
    const batch = pending;
    pending = [];
    working = working.then(() => closed ? undefined : deliver(client, channels, batch, position, handlers)).catch((err: Error) => {
      drop(`changes could not be read: ${err.message}`);
    });
  };

  const subscriptions = [...channels.keys()].map((channel) => fayeClient!.subscribe(channel, (message) => {
    if (closed) return;
    pending.push({ ...message, channel } as ChangeMessage & { channel: string });
    timer ??= setTimeout(flush, BATCH_WINDOW_MS);
  }));
  let subscribeTimer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all(subscriptions.map((s) => new Promise((resolve, reject) => s.then(resolve, reject)))),
      new Promise((_, reject) => { subscribeTimer = setTimeout(() => reject(new Error('the subscription was not acknowledged')), SUBSCRIBE_TIMEOUT_MS); }),
    ]);
  } catch (err) {
    const reason = (err as { message?: string }).message ?? String(err);
    drop(`the change events could not be subscribed (${reason})`);
    throw new Error(`the change events could not be subscribed (${reason})`);
  } finally {
    clearTimeout(subscribeTimer);
  }
  options.log.info({ channels: [...channels.keys()], from: position }, 'salesforce change events subscribed');
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const s of subscriptions) s.cancel();
      fayeClient?.disconnect();
      await working;
    },
  };
}

/** One batch of events: the records they name read whole, handed over, and the position moved past them. */
async function deliver(
  client: SalesforceClient, channels: Map<string, SalesforceObject>, batch: (ChangeMessage & { channel?: string })[],
  position: Record<string, number>, handlers: StreamHandlers,
): Promise<void> {
  const ids = new Map<SalesforceObject, Set<string>>();
  const next = { ...position };
  for (const message of batch) {
    const object = channels.get(message.channel ?? '');
    const header = message.payload?.ChangeEventHeader;
    const replayId = message.event?.replayId;
    if (!object || !header) continue;
    if (typeof replayId === 'number') next[message.channel!] = Math.max(next[message.channel!] ?? NEW_EVENTS_ONLY, replayId);
    if (header.changeType === 'GAP_OVERFLOW') throw new Error('Salesforce could not send every change (GAP_OVERFLOW): a sync reads them');
    if (/DELETE$/.test(header.changeType) || isOwnWrite(header, client.userId)) continue;
    for (const id of header.recordIds ?? []) (ids.get(object) ?? ids.set(object, new Set()).get(object)!).add(id);
  }
  const records: PlatformRecord[] = [];
  for (const [object, set] of ids) {
    const list = [...set];
    for (let i = 0; i < list.length; i += IDS_PER_QUERY) {
      const where = list.slice(i, i + IDS_PER_QUERY).map((id) => `Id = '${id.replace(/[^\w]/g, '')}'`).join(' OR ');
      const soql = `SELECT Id, SystemModstamp, ${readFieldsOf(object).join(', ')} FROM ${object} WHERE ${where}`;
      const page = await client.get<{ records: SalesforceRecord[] }>(`/query?q=${encodeURIComponent(soql)}`);
      for (const r of page.records) records.push({ key: keyOf(object, r.Id), contact: contactOf(object, r) });
    }
  }
  await handlers.onRecords(records, next);
  Object.assign(position, next);
}
