/**
 * Reading contacts changed since the watermark through the CRM search API, and writing verdicts back 100 at a time
 * (POST /crm/v3/objects/contacts/batch/update).
 *
 * Each run reads one window of `lastmodifieddate` (from the watermark, less an overlap for HubSpot's index lag, up to
 * the run's start), by `hs_object_id` ascending, each page a new search for the ids after the last one read
 * (keyset paging): a search answers at most 10,000 results, and its `after` is an offset, which our own write-backs
 * would shift (a contact written moves out of the window, the ones behind it move up a place, and an offset past them
 * skips as many). Keyset paging never pages past the cap and loses nothing however the window changes under it; a
 * contact changed during the run (our writes included) is the next window's. The watermark is the window and the last
 * id read, so a run stopped anywhere (a daily limit, a credits pause) goes on from there.
 */
import type { ChangePage, ConnectorSession, PlatformRecord, Watermark, WriteBackItem, WriteBackOutcome } from '../../src/sync/plugin.js';
import type { BatchError, HubspotClient, SearchRequest } from './client.js';
import { HubspotError } from './http.js';
import { idOf, READ_PROPERTIES, recordOf } from './mapping.js';
import { propertiesOf } from './properties.js';

export interface SessionOptions {
  pageSize: number;
  /** How far before the last window's end the next one starts (HubSpot's search index lags its writes by seconds). */
  overlapMs: number;
  /** The optional properties the account holds as we make them (properties.ts writableOptional), kept a while. */
  writableOptional(): Promise<ReadonlySet<string>>;
}

/**
 * Where reading stopped: the window under way (`until` set; `afterId` the last contact read in it), or the end of the
 * last window done (`since` only).
 */
export interface ContactsMark { since: string | null; until?: string; afterId?: string }

/** HubSpot's batch endpoints take 100 inputs a call. */
const BATCH_SIZE = 100;

export function createSession(client: HubspotClient, options: SessionOptions): ConnectorSession {
  return {
    changes: (watermark) => changes(client, options, watermark),
    writeBack: async (items) => writeBack(client, items, items.length ? await options.writableOptional() : new Set()),
    read: (keys) => readContacts(client, keys.map(idOf).filter((id): id is string => id !== null)),
  };
}

/** The watermark the core kept (opaque JSON): a mark only when it has the shape this plugin writes. */
function markOf(value: unknown): ContactsMark {
  const v = value as Partial<ContactsMark> | null | undefined;
  const time = (t: unknown) => (typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? t : undefined);
  if (!v) return { since: null };
  const until = time(v.until);
  return until
    ? { since: time(v.since) ?? null, until, ...(typeof v.afterId === 'string' && /^\d+$/.test(v.afterId) ? { afterId: v.afterId } : {}) }
    : { since: time(v.since) ?? null };
}

function windowRequest(since: string | null, until: string, afterId: string | undefined, limit: number): SearchRequest {
  const filters = [
    ...(since ? [{ propertyName: 'lastmodifieddate', operator: 'GTE', value: String(Date.parse(since)) }] : []),
    { propertyName: 'lastmodifieddate', operator: 'LT', value: String(Date.parse(until)) },
    ...(afterId ? [{ propertyName: 'hs_object_id', operator: 'GT', value: afterId }] : []),
  ];
  return { filterGroups: [{ filters }], sorts: [{ propertyName: 'hs_object_id', direction: 'ASCENDING' }], properties: [...READ_PROPERTIES], limit };
}

async function* changes(client: HubspotClient, options: SessionOptions, watermark: Watermark): AsyncGenerator<ChangePage> {
  const kept = markOf(watermark.contacts);
  // A window under way goes on as it was; else a new one, from the last one's end less the overlap, up to now.
  const since = kept.until ? kept.since : kept.since ? new Date(Date.parse(kept.since) - options.overlapMs).toISOString() : null;
  const until = kept.until ?? new Date().toISOString();
  let afterId = kept.until ? kept.afterId : undefined;
  for (;;) {
    const page = await client.search(windowRequest(since, until, afterId, options.pageSize));
    const records: PlatformRecord[] = page.results.map(recordOf);
    const last = page.results.at(-1);
    if (last) afterId = last.id;
    // A short page is the window's last: the watermark then says the window is done.
    const done = page.results.length < options.pageSize;
    const mark: ContactsMark = done ? { since: until } : { since, until, afterId };
    yield { records, watermark: { ...watermark, contacts: mark } };
    if (done) return;
  }
}

/** The contacts a webhook named, read whole (POST /crm/v3/objects/contacts/batch/read); deleted ones are left out. */
export async function readContacts(client: HubspotClient, ids: string[]): Promise<PlatformRecord[]> {
  const records: PlatformRecord[] = [];
  for (let start = 0; start < ids.length; start += BATCH_SIZE) {
    const answer = await client.batchRead(ids.slice(start, start + BATCH_SIZE), READ_PROPERTIES);
    records.push(...answer.results.map(recordOf));
  }
  return records;
}

async function writeBack(client: HubspotClient, items: WriteBackItem[], optional: ReadonlySet<string>): Promise<WriteBackOutcome[]> {
  const outcomes: WriteBackOutcome[] = items.map((item) => ({ key: item.key, ok: false, error: 'NOT_SENT: not written' }));
  const inputs: { index: number; id: string; properties: Record<string, string> }[] = [];
  items.forEach((item, index) => {
    const id = idOf(item.key);
    if (id) inputs.push({ index, id, properties: propertiesOf(item, optional) });
    else outcomes[index].error = `INVALID_KEY: ${item.key} is not a contact of this connector`;
  });
  for (let start = 0; start < inputs.length; start += BATCH_SIZE) {
    await sendBatch(client, inputs.slice(start, start + BATCH_SIZE), outcomes, items);
  }
  return outcomes;
}

/**
 * One batch update. HubSpot answers 200 with every contact, 207 with the errors of some (a contact deleted meanwhile:
 * its id in the error's context), or 400 for the whole batch: a property that does not exist fails every contact alike
 * (the check names it); another refusal (a value HubSpot rejects) is narrowed by sending each contact on its own.
 */
async function sendBatch(
  client: HubspotClient, batch: { index: number; id: string; properties: Record<string, string> }[],
  outcomes: WriteBackOutcome[], items: WriteBackItem[],
): Promise<void> {
  const fail = (entry: (typeof batch)[number], error: string) => { outcomes[entry.index] = { key: items[entry.index].key, ok: false, error }; };
  try {
    const answer = await client.batchUpdate(batch.map(({ id, properties }) => ({ id, properties })));
    const failed = new Map<string, string>();
    for (const e of answer.errors ?? []) for (const id of e.context?.ids ?? []) failed.set(String(id), errorText(e));
    for (const entry of batch) {
      const error = failed.get(entry.id);
      outcomes[entry.index] = error ? { key: items[entry.index].key, ok: false, error } : { key: items[entry.index].key, ok: true };
    }
  } catch (err) {
    if (!(err instanceof HubspotError) || err.status !== 400) throw err;
    const error = `${err.code}: ${err.body?.message ?? err.message}`;
    if (batch.length === 1 || /PROPERTY_DOESNT_EXIST|does not exist/i.test(JSON.stringify(err.body ?? {}))) {
      for (const entry of batch) fail(entry, error);
      return;
    }
    for (const entry of batch) await sendBatch(client, [entry], outcomes, items);
  }
}

const errorText = (e: BatchError) => `${e.category ?? e.status ?? 'ERROR'}: ${e.message}`;
