/**
 * The CRM half of the local HubSpot: contacts and their properties, as the v3 CRM API documents them. Search takes
 * filterGroups (OR of groups, AND of filters), one sort, `limit` up to 200 and `after` as an offset, and answers at
 * most 10,000 results per query (an `after` past them is a 400, as HubSpot's is); batch update and read take 100
 * inputs, fail the whole batch on a property that does not exist or an option an enumeration lacks, and answer 207
 * with the ids of contacts that are not there.
 */
export interface FakeContact {
  id: string;
  properties: Record<string, string | null>;
  createdAt: number;
  updatedAt: number;
}

export interface FakeProperty {
  name: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  options: { label: string; value: string; displayOrder?: number; hidden?: boolean }[];
  modificationMetadata: { readOnlyValue: boolean; archivable: boolean; readOnlyDefinition: boolean };
  hubspotDefined?: boolean;
}

export class CrmError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) { super(String(body.message)); }
}

const SEARCH_CAP = 10_000;
const BATCH_MAX = 100;
const DEFAULT_PROPERTIES = ['email', 'phone', 'mobilephone', 'address', 'city', 'state', 'zip', 'country', 'firstname', 'lastname'];
const SYSTEM = ['lastmodifieddate', 'createdate', 'hs_object_id'];

const validation = (message: string, extra: Record<string, unknown> = {}) =>
  new CrmError(400, { status: 'error', category: 'VALIDATION_ERROR', message, correlationId: crypto.randomUUID(), ...extra });

export class FakeCrm {
  readonly contacts = new Map<string, FakeContact>();
  readonly properties = new Map<string, FakeProperty>();
  readonly groups = new Map<string, { name: string; label: string; displayOrder: number }>();
  /** Every search body and batch size, for tests to look at. */
  readonly searches: Record<string, unknown>[] = [];
  readonly batchSizes: number[] = [];
  private nextId = 1001;
  private lastStamp = 0;

  constructor() {
    this.groups.set('contactinformation', { name: 'contactinformation', label: 'Contact information', displayOrder: 0 });
    for (const name of DEFAULT_PROPERTIES) this.defineProperty({ name, type: 'string', fieldType: 'text', groupName: 'contactinformation', hubspotDefined: true });
    for (const name of SYSTEM) {
      this.defineProperty({ name, type: name === 'hs_object_id' ? 'number' : 'datetime', fieldType: name === 'hs_object_id' ? 'number' : 'date', groupName: 'contactinformation', hubspotDefined: true, readOnly: true });
    }
  }

  defineProperty(p: { name: string; type: string; fieldType: string; groupName: string; label?: string; options?: FakeProperty['options']; hubspotDefined?: boolean; readOnly?: boolean }) {
    this.properties.set(p.name, {
      name: p.name, label: p.label ?? p.name, type: p.type, fieldType: p.fieldType, groupName: p.groupName, options: p.options ?? [],
      modificationMetadata: { readOnlyValue: Boolean(p.readOnly), archivable: !p.hubspotDefined, readOnlyDefinition: Boolean(p.hubspotDefined) },
      ...(p.hubspotDefined ? { hubspotDefined: true } : {}),
    });
  }

  /** A strictly increasing millisecond stamp: HubSpot's are milliseconds; ties are tested on purpose elsewhere. */
  stamp(at?: number): number {
    this.lastStamp = Math.max(at ?? Date.now(), this.lastStamp + 1);
    return this.lastStamp;
  }

  /**
   * Resolves once every stamp given so far is in the past. Stamps run ahead of the clock when many writes share a
   * millisecond (a batch update); a run that starts before then ends its window (`lastmodifieddate < now`) short of
   * them and reads them the next time, as it would with HubSpot's own index lag. A test that wants them read in its
   * next run waits for this first.
   */
  async settled(): Promise<void> {
    while (Date.now() <= this.lastStamp) await new Promise((resolve) => setTimeout(resolve, Math.max(1, this.lastStamp + 1 - Date.now())));
  }

  /** Contacts made an hour ago, a millisecond apart (unless `at` says when), as an import would have left them. */
  seed(count: number, make: (i: number) => Record<string, string>, at?: (i: number) => number): FakeContact[] {
    const out: FakeContact[] = [];
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < count; i++) {
      const now = at ? at(i) : this.stamp(base);
      const id = String(this.nextId++);
      const contact = { id, properties: { ...make(i) }, createdAt: now, updatedAt: now };
      this.contacts.set(id, contact);
      out.push(contact);
    }
    return out;
  }

  /** An edit as a person makes it in HubSpot: the properties, and a new lastmodifieddate. */
  edit(id: string, properties: Record<string, string | null>): FakeContact {
    const c = this.contacts.get(id);
    if (!c) throw new Error(`no contact ${id}`);
    Object.assign(c.properties, properties);
    c.updatedAt = this.stamp();
    return c;
  }

  private view(c: FakeContact, names: string[]) {
    const props: Record<string, string | null> = {
      hs_object_id: c.id, createdate: new Date(c.createdAt).toISOString(), lastmodifieddate: new Date(c.updatedAt).toISOString(),
    };
    for (const n of names) if (!(n in props)) props[n] = c.properties[n] ?? null;
    return { id: c.id, properties: props, createdAt: new Date(c.createdAt).toISOString(), updatedAt: new Date(c.updatedAt).toISOString(), archived: false };
  }

  private valueOf(c: FakeContact, name: string): string | number | null {
    if (name === 'hs_object_id') return Number(c.id);
    if (name === 'lastmodifieddate') return c.updatedAt;
    if (name === 'createdate') return c.createdAt;
    return c.properties[name] ?? null;
  }

  private operand(name: string, value: unknown): string | number {
    const p = this.properties.get(name);
    if (p?.type === 'datetime') {
      const v = String(value);
      const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
      if (Number.isNaN(ms)) throw validation(`Invalid value ${v} for datetime property ${name}`);
      return ms;
    }
    if (p?.type === 'number') return Number(value);
    return String(value);
  }

  private matches(c: FakeContact, f: { propertyName: string; operator: string; value?: unknown; values?: unknown[] }): boolean {
    const have = this.valueOf(c, f.propertyName);
    if (f.operator === 'HAS_PROPERTY') return have !== null && have !== '';
    if (f.operator === 'NOT_HAS_PROPERTY') return have === null || have === '';
    if (have === null) return f.operator === 'NEQ';
    if (f.operator === 'IN' || f.operator === 'NOT_IN') {
      const set = (f.values ?? []).map((v) => this.operand(f.propertyName, v));
      return set.includes(have) === (f.operator === 'IN');
    }
    const want = this.operand(f.propertyName, f.value);
    switch (f.operator) {
      case 'EQ': return have === want;
      case 'NEQ': return have !== want;
      case 'GT': return have > want;
      case 'GTE': return have >= want;
      case 'LT': return have < want;
      case 'LTE': return have <= want;
      default: throw validation(`Unsupported operator ${f.operator}`);
    }
  }

  search(body: {
    filterGroups?: { filters: { propertyName: string; operator: string; value?: unknown; values?: unknown[] }[] }[];
    sorts?: (string | { propertyName: string; direction?: string })[]; properties?: string[]; limit?: number; after?: string;
  }) {
    this.searches.push(body);
    const limit = body.limit ?? 10;
    if (limit > 200) throw validation('limit must be at most 200');
    const groups = body.filterGroups ?? [];
    if (groups.length > 5) throw validation('at most 5 filterGroups');
    if ((body.sorts ?? []).length > 1) throw validation('at most one sort');
    for (const g of groups) for (const f of g.filters) if (!this.properties.has(f.propertyName)) throw validation(`no property ${f.propertyName}`);
    let found = [...this.contacts.values()].filter((c) => !groups.length || groups.some((g) => g.filters.every((f) => this.matches(c, f))));
    const sort = body.sorts?.[0];
    const by = typeof sort === 'string' ? sort.replace(/^-/, '') : sort?.propertyName ?? 'hs_object_id';
    const descending = typeof sort === 'string' ? sort.startsWith('-') : sort?.direction === 'DESCENDING';
    found.sort((a, b) => {
      const x = this.valueOf(a, by) ?? '';
      const y = this.valueOf(b, by) ?? '';
      return (x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id)) * (descending ? -1 : 1);
    });
    const total = found.length;
    found = found.slice(0, SEARCH_CAP);
    const offset = Number(body.after ?? 0);
    if (offset >= SEARCH_CAP) throw validation(`Search results are limited to ${SEARCH_CAP}: page further with a narrower filter`);
    const page = found.slice(offset, offset + limit);
    const next = offset + limit < found.length ? String(offset + limit) : null;
    return {
      total,
      results: page.map((c) => this.view(c, body.properties ?? ['email', 'firstname', 'lastname'])),
      ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}),
    };
  }

  private checkInputs(inputs: unknown): { id: string; properties?: Record<string, string> }[] {
    if (!Array.isArray(inputs) || inputs.length === 0) throw validation('inputs must be a non-empty list');
    if (inputs.length > BATCH_MAX) throw validation(`Batch input limit is ${BATCH_MAX}`);
    this.batchSizes.push(inputs.length);
    return inputs as { id: string; properties?: Record<string, string> }[];
  }

  /** A value a property refuses, in HubSpot's words; null when it takes it. */
  private refusal(name: string, value: string): { error: string; name: string; message: string } | null {
    const p = this.properties.get(name);
    if (!p) return { error: 'PROPERTY_DOESNT_EXIST', name, message: `Property "${name}" does not exist` };
    if (p.modificationMetadata.readOnlyValue) return { error: 'READ_ONLY_VALUE', name, message: `${name} is a read only property` };
    if (p.type === 'enumeration' && value !== '' && !p.options.some((o) => o.value === value)) {
      return { error: 'INVALID_OPTION', name, message: `${value} was not one of the allowed options` };
    }
    if (p.type === 'datetime' && value !== '' && Number.isNaN(/^\d+$/.test(value) ? Number(value) : Date.parse(value))) {
      return { error: 'INVALID_DATETIME', name, message: `${value} is not a valid datetime` };
    }
    return null;
  }

  batchUpdate(body: { inputs?: unknown }) {
    const inputs = this.checkInputs(body.inputs);
    const refused = inputs.flatMap((i) => Object.entries(i.properties ?? {}).map(([n, v]) => this.refusal(n, String(v)))).filter(Boolean);
    if (refused.length) {
      throw validation(`Property values were not valid: ${JSON.stringify(refused.map((r) => ({ isValid: false, ...r })))}`, {
        errors: refused.map((r) => ({ message: r!.message, code: r!.error, context: { propertyName: [r!.name] } })),
      });
    }
    const missing = inputs.filter((i) => !this.contacts.has(String(i.id))).map((i) => String(i.id));
    const results = inputs.filter((i) => this.contacts.has(String(i.id))).map((i) => {
      const c = this.contacts.get(String(i.id))!;
      for (const [n, v] of Object.entries(i.properties ?? {})) c.properties[n] = v === '' ? null : String(v);
      c.updatedAt = this.stamp();
      return this.view(c, Object.keys(i.properties ?? {}));
    });
    return this.batchAnswer(results, missing);
  }

  batchRead(body: { inputs?: unknown; properties?: string[] }) {
    const inputs = this.checkInputs(body.inputs);
    const missing = inputs.filter((i) => !this.contacts.has(String(i.id))).map((i) => String(i.id));
    const results = inputs.filter((i) => this.contacts.has(String(i.id))).map((i) => this.view(this.contacts.get(String(i.id))!, body.properties ?? []));
    return this.batchAnswer(results, missing);
  }

  private batchAnswer(results: unknown[], missing: string[]) {
    const now = new Date().toISOString();
    const answer = { status: 'COMPLETE', results, startedAt: now, completedAt: now };
    if (!missing.length) return { status: 200, body: answer };
    return {
      status: 207,
      body: {
        ...answer, numErrors: 1,
        errors: [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: 'Could not get some CONTACT objects, they may be deleted or not exist. Check that ids are valid.', context: { ids: missing } }],
      },
    };
  }

  createProperty(body: Record<string, unknown>) {
    const name = String(body.name ?? '');
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw validation(`Invalid property name ${name}`);
    if (this.properties.has(name)) throw new CrmError(409, { status: 'error', category: 'OBJECT_ALREADY_EXISTS', message: `A property named '${name}' already exists.` });
    const groupName = String(body.groupName ?? '');
    if (!this.groups.has(groupName)) throw validation(`property group ${groupName} does not exist`);
    if (!['string', 'number', 'date', 'datetime', 'enumeration', 'bool'].includes(String(body.type))) throw validation(`Invalid type ${String(body.type)}`);
    if (body.type === 'enumeration' && !Array.isArray(body.options)) throw validation('an enumeration needs options');
    this.defineProperty({
      name, label: String(body.label ?? name), type: String(body.type), fieldType: String(body.fieldType), groupName,
      options: (body.options as FakeProperty['options'] | undefined) ?? [],
    });
    return this.properties.get(name)!;
  }

  createGroup(body: Record<string, unknown>) {
    const name = String(body.name ?? '');
    if (this.groups.has(name)) throw new CrmError(409, { status: 'error', category: 'OBJECT_ALREADY_EXISTS', message: `A group named '${name}' already exists.` });
    const group = { name, label: String(body.label ?? name), displayOrder: Number(body.displayOrder ?? -1) };
    this.groups.set(name, group);
    return group;
  }
}
