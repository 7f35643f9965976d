/**
 * Reading changed customers and orders a page at a time (`updated_at` search, `sortKey: UPDATED_AT`, cursors) and
 * writing verdicts back: metafields through `metafieldsSet` (25 a call, atomic) and the connector's tags through
 * `tagsAdd`/`tagsRemove`, aliased into one mutation document per batch.
 */
import type { ChangePage, ConnectorSession, Watermark, WriteBackItem, WriteBackOutcome } from '../../src/sync/plugin.js';
import type { ShopifyClient } from './client.js';
import { subscribeWebhooks } from './subscriptions.js';
import {
  metafieldsOf, parseKey, recordOf, RESOURCE, tagChangesOf, type MetafieldInput, type ResourceNode, type ShopifyResource,
} from './mapping.js';

export interface SessionOptions {
  resources: ShopifyResource[];
  pageSize: number;
  /** How far before the last updatedAt each read starts again (records saved late with an earlier stamp). */
  overlapMs: number;
  writeTags: boolean;
  writeMetafields: boolean;
}

/** Where reading one resource stopped: the last record read, in the order of the query. */
export interface ResourceMark { updatedAt: string; id: string }

/** At most 25 metafields per `metafieldsSet` (shopify.dev); tag mutations cost 10 points each: 20 keep a call at ~210. */
const METAFIELDS_PER_CALL = 25;
const TAG_MUTATIONS_PER_CALL = 20;
/** The tags of records read lately (to add and remove only what changes), bounded: the oldest go first. */
const KNOWN_TAGS_MAX = 10_000;

const ADDRESS_SELECTION = '{ address1 address2 city provinceCode zip countryCodeV2 phone }';
/** Cost 2 + first × 2 (the node and its address): 502 at 250, under the 1,000 a single query may cost. */
const pageQuery = (resource: ShopifyResource) => `query ConnectorPage($first: Int!, $after: String, $query: String) {
  ${resource}(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { id updatedAt email phone tags ${RESOURCE[resource].address} ${ADDRESS_SELECTION} }
    pageInfo { hasNextPage endCursor }
  }
}`;

type KnownTags = Map<string, string[]>;

export function createSession(client: ShopifyClient, options: SessionOptions): ConnectorSession {
  const known: KnownTags = new Map();
  return {
    changes: (watermark) => changes(client, options, watermark, known),
    writeBack: (items) => writeBack(client, options, items, known),
    ensureWebhooks: (callbackUrl) => ensureWebhooks(client, options, callbackUrl),
  };
}

/** Subscribes the webhooks at a run's start; a refusal fails the subscription (the core logs it and goes on). */
async function ensureWebhooks(client: ShopifyClient, options: SessionOptions, callbackUrl: string): Promise<void> {
  const refused = await subscribeWebhooks(client, options.resources, callbackUrl);
  if (refused.length) throw new Error(refused.map((r) => `webhook ${r.topic} not subscribed: ${r.message}`).join('; '));
}

async function* changes(client: ShopifyClient, options: SessionOptions, watermark: Watermark, known: KnownTags): AsyncGenerator<ChangePage> {
  let current: Watermark = { ...watermark };
  for (const resource of options.resources) {
    let mark = markOf(current[resource]);
    // Search is by the second; `>=` and the overlap catch records saved late with an earlier stamp.
    const query = mark ? `updated_at:>='${new Date(Date.parse(mark.updatedAt) - options.overlapMs).toISOString().replace(/\.\d{3}Z$/, 'Z')}'` : null;
    let after: string | null = null;
    do {
      const data: Record<string, { nodes: ResourceNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> =
        await client.request(`${resource}.page`, pageQuery(resource), { first: options.pageSize, after, query });
      const { nodes, pageInfo } = data[resource];
      for (const node of nodes) {
        remember(known, recordOf(resource, node).key, node.tags ?? []);
        mark = later(mark, { updatedAt: new Date(Date.parse(node.updatedAt)).toISOString(), id: node.id });
      }
      if (nodes.length > 0) {
        current = { ...current, [resource]: mark };
        yield { records: nodes.map((node) => recordOf(resource, node)), watermark: current };
      }
      after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
    } while (after);
  }
}

function remember(known: KnownTags, key: string, tags: string[]) {
  known.delete(key);
  known.set(key, tags);
  for (const oldest of known.keys()) {
    if (known.size <= KNOWN_TAGS_MAX) break;
    known.delete(oldest);
  }
}

/** The watermark the core kept (opaque JSON): a mark only when it has the shape this plugin writes. */
function markOf(value: unknown): ResourceMark | null {
  const v = value as Partial<ResourceMark> | null | undefined;
  return v && typeof v.updatedAt === 'string' && !Number.isNaN(Date.parse(v.updatedAt)) && typeof v.id === 'string'
    ? { updatedAt: v.updatedAt, id: v.id }
    : null;
}

const numericId = (gid: string) => Number(/\d+$/.exec(gid)?.[0] ?? 0);

/** The overlap re-reads older records: the mark never goes back. */
function later(a: ResourceMark | null, b: ResourceMark): ResourceMark {
  if (!a) return b;
  const order = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return order > 0 || (order === 0 && numericId(a.id) > numericId(b.id)) ? a : b;
}

// ---- write-back ----------------------------------------------------------------------------------------------------

interface Work { index: number; key: string; gid: string; metafields: MetafieldInput[]; add: string[]; remove: string[] }
interface UserError { field?: string[] | null; message: string; code?: string | null; elementIndex?: number | null }
type MutationResult = { userErrors: UserError[] } | null;

async function writeBack(client: ShopifyClient, options: SessionOptions, items: WriteBackItem[], known: KnownTags): Promise<WriteBackOutcome[]> {
  const outcomes: WriteBackOutcome[] = items.map((item) => ({ key: item.key, ok: true }));
  const work: Work[] = [];
  items.forEach((item, index) => {
    const parsed = parseKey(item.key);
    if (!parsed) {
      outcomes[index] = { key: item.key, ok: false, error: `INVALID_KEY: ${item.key} is not a customer or order of this connector` };
      return;
    }
    const metafields = options.writeMetafields ? metafieldsOf(parsed.gid, item) : [];
    let { add, remove } = options.writeTags ? tagChangesOf(parsed.resource, item) : { add: [], remove: [] };
    // Tags read in this session: only what changes (a record not read here gets both: adding and removing are idempotent).
    const current = known.get(item.key)?.map((t) => t.toLowerCase());
    if (current) {
      add = add.filter((t) => !current.includes(t));
      remove = remove.filter((t) => current.includes(t));
    }
    if (metafields.length || add.length || remove.length) work.push({ index, key: item.key, gid: parsed.gid, metafields, add, remove });
  });

  const errors = new Map<number, string[]>();
  const fail = (w: Work, message: string) => errors.set(w.index, [...(errors.get(w.index) ?? []), message]);
  for (const batch of batches(work)) {
    const blocked = await sendBatch(client, batch, true, fail);
    // metafieldsSet is atomic: records refused for another's error go again on their own call.
    if (blocked.length) {
      const again = await sendBatch(client, blocked, false, fail);
      for (const w of again) fail(w, 'NOT_SAVED: refused together with another record');
    }
  }
  for (const w of work) {
    const failed = errors.get(w.index);
    if (failed) {
      outcomes[w.index] = { key: w.key, ok: false, error: failed.join('; ') };
    } else {
      const tags = known.get(w.key);
      if (tags) remember(known, w.key, [...tags.filter((t) => !w.remove.includes(t.toLowerCase())), ...w.add]);
    }
  }
  return outcomes;
}

/** Records in call-sized groups; a record's metafields never split over two calls. */
function batches(work: Work[]): Work[][] {
  const out: Work[][] = [];
  let batch: Work[] = [];
  let metafields = 0;
  let tags = 0;
  for (const w of work) {
    const m = w.metafields.length;
    const t = (w.add.length ? 1 : 0) + (w.remove.length ? 1 : 0);
    if (batch.length && (metafields + m > METAFIELDS_PER_CALL || tags + t > TAG_MUTATIONS_PER_CALL)) {
      out.push(batch);
      batch = [];
      metafields = 0;
      tags = 0;
    }
    batch.push(w);
    metafields += m;
    tags += t;
  }
  if (batch.length) out.push(batch);
  return out;
}

/**
 * One mutation document: `metafieldsSet` for the batch's metafields, and (with `withTags`) a `tagsAdd`/`tagsRemove`
 * per record, aliased. Errors go to their record; gives back the records whose metafields were refused only because
 * another's were (nothing saved: atomic).
 */
async function sendBatch(client: ShopifyClient, batch: Work[], withTags: boolean, fail: (w: Work, message: string) => void): Promise<Work[]> {
  const variables: Record<string, unknown> = {};
  const definitions: string[] = [];
  const fields: string[] = [];
  const owners: Work[] = [];
  const metafields = batch.flatMap((w) => w.metafields.map((m) => { owners.push(w); return m; }));
  if (metafields.length) {
    variables.metafields = metafields;
    definitions.push('$metafields: [MetafieldsSetInput!]!');
    fields.push('metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code elementIndex } }');
  }
  const tagAliases = new Map<string, Work>();
  if (withTags) {
    batch.forEach((w, i) => {
      for (const [op, tags] of [['tagsAdd', w.add], ['tagsRemove', w.remove]] as const) {
        if (!tags.length) continue;
        const alias = `${op === 'tagsAdd' ? 'add' : 'remove'}${i}`;
        variables[`${alias}Id`] = w.gid;
        variables[`${alias}Tags`] = tags;
        definitions.push(`$${alias}Id: ID!`, `$${alias}Tags: [String!]!`);
        fields.push(`${alias}: ${op}(id: $${alias}Id, tags: $${alias}Tags) { node { id } userErrors { field message } }`);
        tagAliases.set(alias, w);
      }
    });
  }
  if (!fields.length) return [];
  const data = await client.request<Record<string, MutationResult>>('writeBack', `mutation ConnectorWriteBack(${definitions.join(', ')}) {\n  ${fields.join('\n  ')}\n}`, variables);

  for (const [alias, w] of tagAliases) {
    for (const e of data[alias]?.userErrors ?? []) fail(w, `${alias.startsWith('add') ? 'TAGS_ADD' : 'TAGS_REMOVE'}: ${e.message}`);
  }
  const refused = data.metafieldsSet?.userErrors ?? [];
  if (!refused.length) return [];
  // Per record, each distinct error once, with the metafields it names: `INVALID_VALUE: … (email_status, result)`.
  const byRecord = new Map<Work, Map<string, string[]>>();
  for (const e of refused) {
    const at = e.elementIndex ?? (e.field?.[0] === 'metafields' && e.field[1] !== undefined ? Number(e.field[1]) : null);
    const owner = at !== null && Number.isInteger(at) ? owners[at] : undefined;
    const message = `${e.code ?? 'INVALID'}: ${e.message}`;
    // An error of no one element (too many metafields) is everyone's.
    for (const w of owner ? [owner] : batch) {
      const messages = byRecord.get(w) ?? new Map<string, string[]>();
      byRecord.set(w, messages.set(message, [...(messages.get(message) ?? []), ...(owner ? [metafields[at!].key] : [])]));
    }
  }
  for (const [w, messages] of byRecord) {
    for (const [message, keys] of messages) fail(w, keys.length ? `${message} (${keys.join(', ')})` : message);
  }
  return batch.filter((w) => !byRecord.has(w) && w.metafields.length > 0);
}
