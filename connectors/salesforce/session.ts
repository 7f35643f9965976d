/**
 * Reading changed Contacts and Leads a page at a time (SOQL on SystemModstamp, following nextRecordsUrl) and writing
 * verdicts back with sObject Collections (REST API Developer Guide, "Update Multiple Records with Fewer Round-Trips").
 */
import jsforce from 'jsforce';
import type { ListenOptions } from './realtime.js';
import type { ChangePage, ConnectorSession, PlatformFetch, PlatformRecord, Watermark, WriteBackItem, WriteBackOutcome } from '../../src/sync/plugin.js';
import { SalesforceError, type SalesforceClient } from './client.js';
import { contactOf, keyOf, parseKey, readFieldsOf, writeBackFieldsOf, type SalesforceObject, type SalesforceRecord, type WriteBackMode } from './mapping.js';

export interface SessionOptions {
  objects: SalesforceObject[];
  pageSize: number;
  /** Where the standardized values go (over the address fields, into the shadow fields, or nowhere). */
  writeMode: WriteBackMode;
  /** settings.reverify_after_days: records verified this long ago are read again after the changes. */
  reverifyAfterDays?: number;
  /** settings.realtime: the session can listen to Change Data Capture, through this fetch (the outbound guard). */
  realtime?: { fetch: PlatformFetch; log: ListenOptions['log'] };
  /** How far before the last SystemModstamp a read starts again: a long transaction commits with an earlier stamp. */
  overlapMs: number;
  /** The optional CV_ fields (the next actions) the run-as user may edit on an object (check.ts), kept a while. */
  writableOptional(object: SalesforceObject): Promise<ReadonlySet<string>>;
}

/** Where reading one object stopped: the last record read, in the order of the query. */
export interface ObjectMark { systemModstamp: string; id: string }

interface QueryPage { totalSize: number; done: boolean; nextRecordsUrl?: string; records: SalesforceRecord[] }
interface SaveResult { id: string | null; success: boolean; errors: { statusCode: string; message: string; fields?: string[] }[] }

/** sObject Collections take at most 200 records a call. */
const COLLECTION_SIZE = 200;
/** A query cursor Salesforce dropped (15 minutes idle) is asked again from the watermark, a few times per object. */
const MAX_QUERY_RESTARTS = 3;

/**
 * The records read lately, by key, until written (the core may read the next page while it writes this one): a
 * standardized address written over one reads back merged with it. Bounded: the oldest go first.
 */
type LastPage = Map<string, SalesforceRecord>;
const LAST_READ_MAX = 10_000;

export function createSession(client: SalesforceClient, options: SessionOptions): ConnectorSession {
  const lastPage: LastPage = new Map();
  return {
    ...(options.realtime ? {
      listen: async (position, handlers) => (await import('./realtime.js')).listenForChanges(client, { ...options.realtime!, objects: options.objects }, position, handlers),
    } : {}),
    changes: (watermark) => changes(client, options, watermark, lastPage),
    writeBack: (items) => writeBack(client, options, items, lastPage),
    urls: () => [client.instanceUrl],
  };
}

async function* changes(client: SalesforceClient, options: SessionOptions, watermark: Watermark, lastPage: LastPage): AsyncGenerator<ChangePage> {
  let current: Watermark = { ...watermark };
  // Salesforce takes batchSize as a hint (200..2000): pages may be larger or smaller.
  const headers = { 'Sforce-Query-Options': `batchSize=${options.pageSize}` };
  for (const object of options.objects) {
    let mark = markOf(current[object]);
    let url: string | null = queryUrl(object, mark, options.overlapMs);
    let restarts = 0;
    while (url) {
      let page: QueryPage;
      try {
        page = await client.get<QueryPage>(url, headers);
      } catch (err) {
        if (err instanceof SalesforceError && err.errorCode === 'INVALID_QUERY_LOCATOR' && restarts++ < MAX_QUERY_RESTARTS) {
          url = queryUrl(object, mark, options.overlapMs);
          continue;
        }
        throw err;
      }
      const records: PlatformRecord[] = page.records.map((r) => ({ key: keyOf(object, r.Id), contact: contactOf(object, r) }));
      for (const r of page.records) lastPage.set(keyOf(object, r.Id), r);
      for (const key of lastPage.keys()) {
        if (lastPage.size <= LAST_READ_MAX) break;
        lastPage.delete(key);
      }
      for (const r of page.records) mark = later(mark, { systemModstamp: new Date(Date.parse(r.SystemModstamp)).toISOString(), id: r.Id });
      if (records.length > 0) {
        current = { ...current, [object]: mark };
        yield { records, watermark: current };
      }
      url = page.done || !page.nextRecordsUrl ? null : page.nextRecordsUrl;
    }
  }
  if (options.reverifyAfterDays) yield* dueAgain(client, options, options.reverifyAfterDays, current, lastPage);
}

/** Records re-verified at most this many a run, the longest unverified first. */
const REVERIFY_PER_RUN = 2000;

/**
 * Records whose last verification (CV_Validated_At__c, which every write-back sets) is older than the setting, whatever
 * their changes: marked `reverify` with that time, so the core checks them in full and charges them once for it. The
 * watermark does not move for them.
 */
async function* dueAgain(
  client: SalesforceClient, options: SessionOptions, days: number, watermark: Watermark, lastPage: LastPage,
): AsyncGenerator<ChangePage> {
  const before = jsforce.SfDate.toDateTimeLiteral(new Date(Date.now() - days * 86_400_000));
  for (const object of options.objects) {
    const soql = `SELECT Id, SystemModstamp, CV_Validated_At__c, ${readFieldsOf(object).join(', ')} FROM ${object} ` +
      `WHERE CV_Validated_At__c < ${before} ORDER BY CV_Validated_At__c ASC, Id ASC LIMIT ${REVERIFY_PER_RUN}`;
    let url: string | null = `/query?q=${encodeURIComponent(soql)}`;
    while (url) {
      const page: QueryPage = await client.get<QueryPage>(url, { 'Sforce-Query-Options': `batchSize=${options.pageSize}` });
      const records = page.records.map((r) => ({ key: keyOf(object, r.Id), contact: contactOf(object, r), reverify: String(r.CV_Validated_At__c) }));
      for (const r of page.records) lastPage.set(keyOf(object, r.Id), r);
      if (records.length) yield { records, watermark };
      url = page.done || !page.nextRecordsUrl ? null : page.nextRecordsUrl;
    }
  }
}

function queryUrl(object: SalesforceObject, mark: ObjectMark | null, overlapMs: number): string {
  // SOQL datetimes are unquoted ISO 8601 (jsforce's query builder would write a JS Date's toString: PLATFORM-NOTES).
  const where = mark
    ? ` WHERE SystemModstamp >= ${jsforce.SfDate.toDateTimeLiteral(new Date(Date.parse(mark.systemModstamp) - overlapMs))}`
    : '';
  const soql = `SELECT Id, SystemModstamp, ${readFieldsOf(object).join(', ')} FROM ${object}${where} ORDER BY SystemModstamp ASC, Id ASC`;
  return `/query?q=${encodeURIComponent(soql)}`;
}

/** The watermark the core kept (opaque JSON): a mark only when it has the shape this plugin writes. */
function markOf(value: unknown): ObjectMark | null {
  const v = value as Partial<ObjectMark> | null | undefined;
  return v && typeof v.systemModstamp === 'string' && !Number.isNaN(Date.parse(v.systemModstamp)) && typeof v.id === 'string'
    ? { systemModstamp: v.systemModstamp, id: v.id }
    : null;
}

/** The overlap re-reads older records: the mark never goes back. */
function later(a: ObjectMark | null, b: ObjectMark): ObjectMark {
  if (!a) return b;
  const order = Date.parse(a.systemModstamp) - Date.parse(b.systemModstamp);
  return order > 0 || (order === 0 && a.id > b.id) ? a : b;
}

async function writeBack(client: SalesforceClient, options: SessionOptions, items: WriteBackItem[], lastPage: LastPage): Promise<WriteBackOutcome[]> {
  const outcomes: WriteBackOutcome[] = items.map((item) => ({ key: item.key, ok: false, error: 'NOT_SENT: not written' }));
  const byObject = new Map<SalesforceObject, number[]>();
  items.forEach((item, i) => {
    const parsed = parseKey(item.key);
    if (!parsed) {
      outcomes[i].error = `INVALID_KEY: ${item.key} is not a Contact or Lead of this connector`;
      return;
    }
    byObject.set(parsed.object, [...(byObject.get(parsed.object) ?? []), i]);
  });
  for (const [object, indexes] of byObject) {
    const optional = await options.writableOptional(object);
    for (let start = 0; start < indexes.length; start += COLLECTION_SIZE) {
      const chunk = indexes.slice(start, start + COLLECTION_SIZE);
      const fields = chunk.map((i) => writeBackFieldsOf(object, items[i], options.writeMode, optional));
      const records = chunk.map((i, n) => ({ attributes: { type: object }, id: parseKey(items[i].key)!.id, ...fields[n] }));
      // allOrNone false: one record refused (a validation rule) does not roll back the others.
      const results = await client.patch<SaveResult[]>('/composite/sobjects', { allOrNone: false, records });
      chunk.forEach((i, n) => {
        const result = results[n];
        const read = lastPage.get(items[i].key);
        lastPage.delete(items[i].key);
        // The address fields written over: the record now reads as the page's copy with them.
        const overwrote = read && Object.keys(fields[n]).some((name) => !name.startsWith('CV_'));
        outcomes[i] = result?.success
          ? { key: items[i].key, ok: true, ...(overwrote ? { written: contactOf(object, { ...read, ...stripNulls(fields[n]) }) } : {}) }
          : { key: items[i].key, ok: false, error: errorOf(result) };
      });
    }
  }
  return outcomes;
}

function errorOf(result: SaveResult | undefined): string {
  if (!result) return 'NO_RESULT: Salesforce gave no result for this record';
  return result.errors.map((e) => `${e.statusCode}: ${e.message}`).join('; ') || 'UNKNOWN: not saved';
}

/** A null in the write leaves the field as it was (writeBackFieldsOf). */
function stripNulls(fields: Record<string, string | number | null>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null)) as Record<string, string | number>;
}
