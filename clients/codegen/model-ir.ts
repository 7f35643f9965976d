/**
 * Reads the OpenAPI description's component schemas into a small model of types (records, vocabularies, references)
 * that each language's emitter prints. The JSON Schema the service's document uses is a small subset (objects with
 * properties, `type` arrays and `anyOf` with `null`, `enum`, `const`, `$ref`, arrays, maps), and only that is read:
 * anything else fails loudly, so a new construct in the document is noticed here, not shipped as `any`.
 *
 * The tables below are the one hand-kept part: which schemas each client carries, under which name (the clients'
 * names predate generation and are kept), and what each vocabulary's constants are called.
 */

export type Language = 'ts' | 'py' | 'go' | 'java';
export const LANGUAGES: Language[] = ['ts', 'py', 'go', 'java'];

type JsonSchema = Record<string, any>;
type Names = Partial<Record<Language, string>>;

/**
 * A schema the clients carry: a component, or an object inside one (`Account.usage`, `ConnectorRun.errors[]`), by its
 * path. A language without a name does not carry it (its hand-written code has its own shape, e.g. a builder).
 */
interface ModelEntry extends Names {
  id: string;
  /** A schema that repeats another's members first: TypeScript and Python say so (`extends`), checked. */
  extends?: string;
}

const same = (name: string): Names => ({ ts: name, py: name, go: name, java: name });

export const MODELS: ModelEntry[] = [
  { id: 'ValidateRequest', ts: 'ValidateRequest' },
  { id: 'ValidateRequest.options', py: 'ValidateOptions' },
  { id: 'AddressComponents', ...same('AddressComponents') },
  { id: 'AddressLocation', ...same('AddressLocation') },
  { id: 'AddressResult', ...same('AddressResult') },
  { id: 'EmailResult', ...same('EmailResult') },
  { id: 'PhoneResult', ...same('PhoneResult') },
  { id: 'Credits', ...same('Credits') },
  { id: 'ValidateAnswer', ts: 'ValidateResponse', py: 'Validation', go: 'ValidateAnswer', java: 'ValidationResult' },
  { id: 'AddressSuggestion', ...same('AddressSuggestion') },
  { id: 'AddressSuggestions', ...same('AddressSuggestions') },
  { id: 'Grant', ...same('Grant'), ts: 'CreditGrant' },
  { id: 'PublishableScope', ...same('PublishableScope'), go: 'PublishableKey', java: 'Publishable' },
  { id: 'ApiKeyInfo', ...same('ApiKey'), go: 'APIKey' },
  { id: 'Account.usage', ...same('Usage') },
  { id: 'Account.usage.address', ...same('ModuleUsage') },
  { id: 'Account.usage.email', ...same('ModuleUsage') },
  { id: 'Account.usage.phone', ...same('ModuleUsage') },
  { id: 'LowBalanceAlert', ...same('LowBalanceAlert') },
  { id: 'Account', ...same('Account') },
  { id: 'AccountPatch', ts: 'UpdateAccountRequest' },
  { id: 'KeyList', ...same('KeyList') },
  { id: 'NewKeyRequest', ts: 'CreateKeyRequest' },
  { id: 'CreatedKey', ...same('CreatedKey'), py: 'NewApiKey', go: 'NewKey' },
  { id: 'RevokedKey', ...same('RevokedKey') },
  // Go and Java have one Batch type: the answer to an upload is a batch whose columns and delimiter are set.
  { id: 'Batch', ...same('Batch') },
  { id: 'CreatedBatch.columns', ...same('BatchColumns') },
  { id: 'CreatedBatch', ...same('Batch'), ts: 'CreatedBatch', py: 'NewBatch', extends: 'Batch' },
  { id: 'BatchList', ...same('BatchList') },
  { id: 'SalesforceSettings', ts: 'SalesforceSettings' },
  { id: 'SalesforceCredentials', ts: 'SalesforceCredentials' },
  { id: 'SalesforceWriteBack', ts: 'SalesforceWriteBack' },
  { id: 'CreateSalesforceConnector', ts: 'SalesforceConnectorInput' },
  { id: 'ShopifySettings', ts: 'ShopifySettings' },
  { id: 'ShopifyCredentials', ts: 'ShopifyCredentials' },
  { id: 'ShopifyWriteBack', ts: 'ShopifyWriteBack' },
  { id: 'CreateShopifyConnector', ts: 'ShopifyConnectorInput' },
  { id: 'CreateConnectorRequest', ts: 'CreateConnectorRequest' },
  { id: 'ConnectorPatch', ts: 'UpdateConnectorRequest' },
  { id: 'ConnectorRun.errors[]', ...same('RunError') },
  { id: 'ConnectorRun', ...same('ConnectorRun') },
  { id: 'ConnectorStream', ...same('ConnectorStream') },
  { id: 'Connector', ...same('Connector') },
  { id: 'ConnectorList', ...same('ConnectorList') },
  { id: 'ConnectorRunList', ...same('ConnectorRunList') },
  { id: 'RunStarted', ...same('RunStarted'), py: 'NewRun' },
  { id: 'NewWebhookEndpoint', ts: 'CreateWebhookEndpointRequest' },
  { id: 'WebhookEndpoint', ...same('WebhookEndpoint') },
  { id: 'CreatedWebhookEndpoint', ...same('CreatedWebhookEndpoint') },
  { id: 'WebhookEndpointList', ...same('WebhookEndpointList') },
  { id: 'WebhookDelivery', ...same('WebhookDelivery') },
  { id: 'WebhookDeliveryList', ...same('WebhookDeliveryList') },
  { id: 'FieldError', ...same('FieldError') },
];

/** A closed vocabulary of the answers (docs/api.md#vocabularies): named, with a name per value in each language. */
interface VocabularyEntry extends Names {
  ids: string[];
  /** Python: the tuple of its values. */
  pyValues?: string;
  /** Go: the constants' prefix (`Address` + `Verified`). */
  goPrefix?: string;
  /** Constant names that the value's spelling does not give (`'Y'` is `Confirmed`). */
  tsConstants?: Record<string, string>;
  goConstants?: Record<string, string>;
  javaConstants?: Record<string, string>;
}

export const VOCABULARIES: VocabularyEntry[] = [
  { ids: ['AddressResult.status'], ...same('AddressStatus'), pyValues: 'ADDRESS_STATUSES', goPrefix: 'Address' },
  {
    ids: ['AddressResult.dpv'], ...same('Dpv'), go: 'DPV', pyValues: 'DPV_CODES',
    tsConstants: { Y: 'Confirmed', N: 'NotConfirmed', S: 'SecondaryMissing', D: 'SecondaryNotConfirmed', '': 'NotCovered' },
    goConstants: { Y: 'DPVConfirmed', N: 'DPVNotConfirmed', S: 'DPVSecondaryIgnored', D: 'DPVSecondaryMissing', '': 'DPVNone' },
    javaConstants: { '': 'NONE' },
  },
  {
    ids: ['AddressResult.evidence'], ...same('AddressEvidence'), pyValues: 'ADDRESS_EVIDENCE', goPrefix: 'Evidence',
    goConstants: { none: 'EvidenceNone' },
  },
  { ids: ['AddressLocation.precision'], ...same('LocationPrecision'), pyValues: 'LOCATION_PRECISIONS', goPrefix: 'Precision' },
  { ids: ['EmailResult.status'], ...same('EmailStatus'), pyValues: 'EMAIL_STATUSES', goPrefix: 'Email' },
  { ids: ['EmailResult.risk'], ...same('EmailRisk'), pyValues: 'EMAIL_RISKS', goPrefix: 'Risk' },
  {
    ids: ['EmailResult.smtp'], ts: 'SmtpResult', py: 'EmailSmtp', go: 'SMTPVerdict', java: 'SmtpVerdict',
    pyValues: 'EMAIL_SMTP_RESULTS', goPrefix: 'SMTP',
  },
  { ids: ['PhoneResult.status'], ...same('PhoneStatus'), pyValues: 'PHONE_STATUSES', goPrefix: 'Phone' },
  {
    ids: ['PhoneResult.type'], ...same('PhoneType'), pyValues: 'PHONE_TYPES', goPrefix: 'Phone',
    goConstants: { voip: 'PhoneVoIP', uan: 'PhoneUAN', unknown: 'PhoneTypeUnknown' },
  },
  { ids: ['PhoneResult.carrier_source'], ...same('CarrierSource'), pyValues: 'CARRIER_SOURCES', goPrefix: 'Carrier' },
  {
    ids: ['ValidateAnswer.next_action', 'AddressResult.next_action', 'EmailResult.next_action', 'PhoneResult.next_action'],
    ...same('NextAction'), pyValues: 'NEXT_ACTIONS', goPrefix: 'NextAction',
  },
  { ids: ['Batch.status', 'CreatedBatch.status'], ...same('BatchStatus'), pyValues: 'BATCH_STATUSES', goPrefix: 'Batch' },
  { ids: ['Connector.status'], ...same('ConnectorStatus'), pyValues: 'CONNECTOR_STATUSES', goPrefix: 'Connector' },
  { ids: ['ConnectorRun.status'], ...same('RunStatus'), pyValues: 'RUN_STATUSES', goPrefix: 'Run' },
  { ids: ['ConnectorStream.status'], ...same('StreamStatus'), pyValues: 'STREAM_STATUSES', goPrefix: 'Stream' },
];

/**
 * Members the document types as a plain string whose clients give a hand-written, richer type: the connector's
 * platform (the create body's variants) and the e-mail reason (an open set with finer `syntax:` codes).
 */
export const HAND_WRITTEN_TYPES: Record<string, Names> = {
  'Connector.type': { ts: 'ConnectorType', go: 'ConnectorType' },
  'EmailResult.reason': { ts: 'EmailReason' },
};

export type TypeRef =
  | { kind: 'string' | 'integer' | 'number' | 'boolean' | 'unknown' | 'date-time' | 'date' }
  | { kind: 'literal'; value: string }
  | { kind: 'vocabulary'; vocabulary: Vocabulary }
  /** An enum no client names (`Grant.kind`): TypeScript lists its values, the others read a string. */
  | { kind: 'values'; values: string[] }
  | { kind: 'model'; id: string }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'map'; values: TypeRef }
  | { kind: 'union'; members: TypeRef[] }
  | { kind: 'object'; fields: Field[]; open: boolean }
  | { kind: 'hand-written'; names: Names; fallback: TypeRef };

export interface Field {
  wire: string;
  type: TypeRef;
  nullable: boolean;
  required: boolean;
  description?: string;
}

export interface Model {
  id: string;
  /** The model whose members this one repeats first (see ModelEntry.extends). */
  extends?: string;
  names: Names;
  description?: string;
  /** A union of other schemas (a create body's variants) rather than a record. */
  union?: TypeRef[];
  fields: Field[];
  /** The service may add members: answers are read leniently. */
  open: boolean;
}

export interface Vocabulary {
  entry: VocabularyEntry;
  values: string[];
  description?: string;
}

export interface ModelSet {
  models: Model[];
  vocabularies: Vocabulary[];
  byId: Map<string, Model>;
}

function unsupported(path: string, schema: unknown): never {
  throw new Error(`clients/generate-models: ${path} uses a schema construct the generator does not read: ${JSON.stringify(schema)}`);
}

/**
 * Names the hand-written code of each client gives its own types: a schema carried under its own name (below) never
 * takes one of them.
 */
const HAND_WRITTEN_NAMES: Record<Language, string[]> = {
  ts: ['APIError', 'BatchResult', 'BatchSource', 'Batches', 'ConnectorType', 'ContactValidator', 'ContactValidatorOptions', 'EmailReason', 'Problem', 'RequestOptions', 'UploadSource', 'WebhookEvent'],
  py: ['BatchResult', 'Body', 'FileInput', 'JSON', 'Response', 'StreamedBody', 'Transport'],
  go: ['AccountUpdate', 'Client', 'ConnectorParams', 'ConnectorType', 'ConnectorUpdate', 'Error', 'KeyParams', 'NetworkError', 'Option', 'ValidateOptions', 'ValidateParams', 'ValidateResult', 'WaitParams', 'WebhookEndpointParams', 'WebhookEvent'],
  java: ['ApiEnum', 'BatchParams', 'Batches', 'Bodies', 'ConnectorParams', 'Connectors', 'ContactValidator', 'Json', 'Keys', 'Paths', 'Problem', 'Transport', 'ValidateRequest', 'Webhooks'],
};

/**
 * The table's entries, and one for each schema an operation sends or answers that the table does not list, under the
 * schema's own name in every language where that name is free: a new endpoint's answer is typed at once.
 */
function entriesWith(schemas: Record<string, JsonSchema>, operationSchemas: string[], resources: string[]): ModelEntry[] {
  // A resource's class takes its name too (`client.feedback` is the class Feedback; Go's is FeedbackService).
  const resourceNames = (l: Language) => resources.map((r) => `${pascalCase(r)}${l === 'go' ? 'Service' : ''}`);
  const taken = Object.fromEntries(LANGUAGES.map((l) => [l, new Set([
    ...HAND_WRITTEN_NAMES[l], ...MODELS.map((m) => m[l]), ...VOCABULARIES.map((v) => v[l]),
    ...Object.values(HAND_WRITTEN_TYPES).map((n) => n[l]), ...resourceNames(l),
  ].filter(Boolean))])) as Record<Language, Set<string>>;
  const listed = new Set(MODELS.map((m) => m.id));
  const added: ModelEntry[] = [];
  for (const id of operationSchemas) {
    const schema = schemas[id];
    if (listed.has(id) || !schema || !/^[A-Z][A-Za-z0-9]*$/.test(id) || !(schema.properties || schema.anyOf || schema.oneOf)) continue;
    listed.add(id);
    added.push({ id, ...Object.fromEntries(LANGUAGES.filter((l) => !taken[l].has(id)).map((l) => [l, id])) });
  }
  return [...MODELS, ...added];
}

/** Reads the document's components into models, in the order of MODELS (then the operations' own, see entriesWith). */
export function readModels(
  document: { components: { schemas: Record<string, JsonSchema> } }, operationSchemas: string[] = [], resources: string[] = [],
): ModelSet {
  const schemas = document.components.schemas;
  const table = entriesWith(schemas, operationSchemas, resources);
  const entries = new Map(table.map((entry) => [entry.id, entry]));
  const vocabularyAt = new Map<string, Vocabulary>();
  const vocabularies: Vocabulary[] = [];
  const found = new Map<string, JsonSchema>();

  const vocabularyFor = (path: string, values: string[], description?: string): Vocabulary | undefined => {
    const entry = VOCABULARIES.find((v) => v.ids.includes(path));
    if (!entry) return undefined;
    let vocabulary = vocabularies.find((v) => v.entry === entry);
    if (!vocabulary) vocabularies.push(vocabulary = { entry, values, description });
    else if (vocabulary.values.join('\u0000') !== values.join('\u0000')) {
      throw new Error(`clients/generate-models: ${entry.ids.join(' and ')} list different values`);
    }
    vocabularyAt.set(path, vocabulary);
    return vocabulary;
  };

  /** The type at `path`, and whether `null` is one of its values. */
  const typeOf = (schema: JsonSchema, path: string): { type: TypeRef; nullable: boolean } => {
    const handWritten = HAND_WRITTEN_TYPES[path];
    if (handWritten) {
      const { type, nullable } = typeOf(schema, `${path}#document`);
      return { type: { kind: 'hand-written', names: handWritten, fallback: type }, nullable };
    }
    if (typeof schema.$ref === 'string') {
      const id = schema.$ref.replace('#/components/schemas/', '');
      if (!schemas[id]) unsupported(path, schema);
      return { type: { kind: 'model', id }, nullable: false };
    }
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const members = (alternatives as JsonSchema[]).filter((s) => s.type !== 'null');
      const nullable = members.length < alternatives.length;
      if (members.length === 1) {
        const inner = typeOf({ ...members[0], description: schema.description }, path);
        return { type: inner.type, nullable: nullable || inner.nullable };
      }
      const read = members.map((m, i) => typeOf(m, `${path}|${i}`));
      return { type: { kind: 'union', members: read.map((r) => r.type) }, nullable: nullable || read.some((r) => r.nullable) };
    }
    let type = schema.type;
    let nullable = false;
    if (Array.isArray(type)) {
      const rest = type.filter((t: string) => t !== 'null');
      nullable = rest.length < type.length;
      if (rest.length !== 1) unsupported(path, schema);
      type = rest[0];
    }
    if (schema.const !== undefined) return { type: { kind: 'literal', value: String(schema.const) }, nullable };
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.map(String);
      const vocabulary = vocabularyFor(path, values, schema.description);
      return { type: vocabulary ? { kind: 'vocabulary', vocabulary } : { kind: 'values', values }, nullable };
    }
    switch (type) {
      case 'string':
        return { type: { kind: schema.format === 'date-time' ? 'date-time' : schema.format === 'date' ? 'date' : 'string' }, nullable };
      case 'integer': case 'number': case 'boolean':
        return { type: { kind: type }, nullable };
      case 'array':
        return { type: { kind: 'array', items: typeOf(schema.items ?? {}, `${path}[]`).type }, nullable };
      case 'object':
        if (schema.properties) {
          if (entries.has(path)) {
            found.set(path, schema);
            return { type: { kind: 'model', id: path }, nullable };
          }
          return { type: { kind: 'object', fields: fieldsOf(schema, path), open: schema.additionalProperties !== false }, nullable };
        }
        return { type: { kind: 'map', values: typeOf(schema.additionalProperties === true ? {} : schema.additionalProperties ?? {}, `${path}{}`).type }, nullable };
      case undefined:
        if (Object.keys(schema).every((k) => k === 'description' || k === 'default')) return { type: { kind: 'unknown' }, nullable };
        return unsupported(path, schema);
      default:
        return unsupported(path, schema);
    }
  };

  const fieldsOf = (schema: JsonSchema, path: string): Field[] => {
    const required = new Set<string>(schema.required ?? []);
    return Object.entries(schema.properties as Record<string, JsonSchema>).map(([wire, property]) => {
      const { type, nullable } = typeOf(property, `${path}.${wire}`);
      return { wire, type, nullable, required: required.has(wire), description: property.description };
    });
  };

  const modelOf = (entry: ModelEntry, schema: JsonSchema): Model => {
    const names: Names = { ts: entry.ts, py: entry.py, go: entry.go, java: entry.java };
    const base = { id: entry.id, names, extends: entry.extends, description: schema.description as string | undefined };
    if (schema.anyOf || schema.oneOf) {
      const { type } = typeOf(schema, entry.id);
      return { ...base, union: type.kind === 'union' ? type.members : [type], fields: [], open: false };
    }
    if (schema.type !== 'object' || !schema.properties) unsupported(entry.id, schema);
    return { ...base, fields: fieldsOf(schema, entry.id), open: schema.additionalProperties !== false };
  };

  // Components first (reading them finds the inline objects), then every entry in the table's order.
  const read = new Map<string, Model>();
  for (const entry of table) {
    if (schemas[entry.id]) read.set(entry.id, modelOf(entry, schemas[entry.id]));
  }
  const models = table.map((entry) => {
    const model = read.get(entry.id) ?? (found.has(entry.id) ? modelOf(entry, found.get(entry.id)!) : undefined);
    if (!model) throw new Error(`clients/generate-models: the document has no schema at ${entry.id}`);
    return model;
  });
  // A component the table does not list but a listed one refers to (a new connector's create body): read too, under
  // no name, so that each language writes it inline (or as its generic map) where it is used, rather than failing.
  const unnamed: Model[] = [];
  for (let added = true; added;) {
    added = false;
    const referenced = JSON.stringify([...models, ...unnamed]).matchAll(/"kind":"model","id":"([^"]+)"/g);
    for (const [, id] of referenced) {
      if (read.has(id) || found.has(id) || unnamed.some((m) => m.id === id) || !schemas[id]) continue;
      unnamed.push(modelOf({ id }, schemas[id]));
      added = true;
    }
  }
  for (const entry of VOCABULARIES) {
    if (!entry.ids.some((id) => vocabularyAt.has(id))) throw new Error(`clients/generate-models: no enum at ${entry.ids.join(', ')}`);
  }
  return { models, vocabularies, byId: new Map([...models, ...unnamed].map((m) => [m.id, m])) };
}

/**
 * The records one language carries, in order. Two schemas a language names alike (Go's and Java's one `Batch`, the
 * three `ModuleUsage` objects) become one record: every member of either, required only where both require it.
 */
export function modelsFor(set: ModelSet, language: Language): Model[] {
  const byName = new Map<string, Model>();
  for (const model of set.models) {
    const name = model.names[language];
    if (!name) continue;
    const seen = byName.get(name);
    if (!seen) {
      byName.set(name, model);
      continue;
    }
    const wires = new Set([...seen.fields, ...model.fields].map((f) => f.wire));
    const fields = [...wires].map((wire) => {
      const a = seen.fields.find((f) => f.wire === wire);
      const b = model.fields.find((f) => f.wire === wire);
      const field = (a ?? b)!;
      return { ...field, required: Boolean(a?.required && b?.required), description: a?.description ?? b?.description };
    });
    byName.set(name, { ...seen, fields, open: seen.open || model.open, description: seen.description ?? model.description });
  }
  return [...byName.values()];
}

/** The members `model` adds to the one it extends (all of them when it extends none). */
export function ownFields(set: ModelSet, model: Model): Field[] {
  if (!model.extends) return model.fields;
  const base = set.byId.get(model.extends)!.fields;
  base.forEach((field, i) => {
    if (JSON.stringify(field) !== JSON.stringify(model.fields[i])) {
      throw new Error(`clients/generate-models: ${model.id} no longer repeats ${model.extends}'s ${field.wire} first`);
    }
  });
  return model.fields.slice(base.length);
}

/** The name a language gives the model `id`, or undefined when it does not carry it. */
export function modelName(set: ModelSet, id: string, language: Language): string | undefined {
  return set.byId.get(id)?.names[language];
}

/** `catch_all` → `CatchAll`; `fixed_or_mobile` → `FixedOrMobile`. */
export function pascalCase(value: string): string {
  return value.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** A description as a sentence, ready to be followed by another. */
export function sentence(text: string | undefined): string {
  if (!text) return '';
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

export const GENERATED_MARK = 'Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.';
