/**
 * Prints the Go client's resource methods (resources.go): one service type per resource (`client.Batches`), one
 * method per operation, a params struct per operation with optional query parameters, and the resources' fields,
 * embedded in Client. The transport (client.go) does the retries and the deadline.
 */
import { goName, goTypeText } from './emit-go.js';
import { GENERATED_MARK, type ModelSet, modelName, pascalCase, sentence } from './model-ir.js';
import { docOf, methodName, type Operation, pagedList, pagerName, type Parameter, resourcesOf, snakeCase } from './operation-ir.js';

/**
 * The hand-written Go types of request bodies (the schemas' Go shapes predate generation: `*KeyParams` may be nil).
 * A body not listed here is the Go model of its schema, or `any` (anything encoding/json encodes).
 */
export const GO_BODY_TYPES: Record<string, string> = {
  ValidateRequest: 'ValidateParams',
  NewKeyRequest: '*KeyParams',
  AccountPatch: 'AccountUpdate',
  CreateConnectorRequest: 'ConnectorParams',
  ConnectorPatch: 'ConnectorUpdate',
  NewWebhookEndpoint: 'WebhookEndpointParams',
};

/** Answers whose hand-written Go type wraps the model (`ValidateResult` adds `Replayed`). */
export const GO_ANSWER_TYPES: Record<string, string> = { validate: 'ValidateResult' };

/** Names of params structs that predate generation; and the one passed by value (`Batches.Create`). */
export const GO_PARAMS_NAMES: Record<string, string> = { autocompleteAddress: 'AutocompleteParams', createBatch: 'BatchParams' };
const GO_PARAMS_BY_VALUE = new Set(['createBatch']);

const serviceName = (resource: string) => `${pascalCase(resource)}Service`;
/** Names the hand-written code already gives a type: a params struct takes another (`ValidateQueryParams`). */
const TAKEN = new Set([...Object.values(GO_BODY_TYPES), ...Object.values(GO_ANSWER_TYPES)].map((t) => t.replace(/^\*/, '')));
const paramsName = (op: Operation) => {
  const name = GO_PARAMS_NAMES[op.id] ?? `${pascalCase(op.id)}Params`;
  return TAKEN.has(name) ? `${pascalCase(op.id)}QueryParams` : name;
};
const argName = (p: Parameter) => {
  const name = goName(snakeCase(p.name));
  const lower = name.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (m) => m.toLowerCase());
  return lower === 'type' || lower === 'func' || lower === 'range' ? `${lower}_` : lower;
};
const fieldName = (p: Parameter) => goName(p.wire.replace(/-/g, '_'));

const requiredType = (p: Parameter) => ({ string: 'string', integer: 'int', boolean: 'bool', list: '[]string' })[p.kind];
const optionalType = (p: Parameter) => ({ string: 'string', integer: 'int', boolean: '*bool', list: '[]string' })[p.kind];

const goType = (set: ModelSet, ref: string | undefined) => (ref && modelName(set, ref, 'go')) || 'map[string]any';

const hasParams = (op: Operation) => op.query.some((p) => !p.required) || op.body?.kind === 'upload';

function paramsStruct(op: Operation): string {
  if (!hasParams(op)) return '';
  const lines = [`// ${paramsName(op)} are the optional parameters of ${op.method} ${op.path}; the zero value leaves each out.`, `type ${paramsName(op)} struct {`];
  for (const p of op.query.filter((q) => !q.required)) {
    lines.push(`\t// ${sentence(p.description ?? p.wire).replace(/\n/g, ' ')}`, `\t${fieldName(p)} ${optionalType(p)}`);
  }
  if (op.body?.kind === 'upload') lines.push(`\t// ContentType is the upload's type; ${op.body.contentType} by default.`, '\tContentType string');
  return `${lines.join('\n')}\n}\n\n`;
}

/** The statements that set query parameter `p` from `value` in `q`. */
function setQuery(p: Parameter, value: string, optional: boolean): string[] {
  const set = (text: string) => `values.Set(${JSON.stringify(p.wire)}, ${text})`;
  switch (p.kind) {
    case 'string': return optional ? [`if ${value} != "" {`, `\t${set(value)}`, '}'] : [set(value)];
    case 'integer': return optional ? [`if ${value} != 0 {`, `\t${set(`strconv.Itoa(${value})`)}`, '}'] : [set(`strconv.Itoa(${value})`)];
    case 'boolean': return optional ? [`if ${value} != nil {`, `\t${set(`strconv.FormatBool(*${value})`)}`, '}'] : [set(`strconv.FormatBool(${value})`)];
    case 'list': return [`if len(${value}) > 0 {`, `\t${set(`strings.Join(${value}, ",")`)}`, '}'];
  }
}

/** The statements that make `values`, the query, from the arguments and `p` (a pointer, nil-checked, when `pointer`). */
function queryStatements(op: Operation, pointer: boolean, uses: Set<string>): string[] {
  const lines = ['values := url.Values{}'];
  for (const p of op.query.filter((x) => x.required)) lines.push(...setQuery(p, argName(p), false));
  const optional = op.query.filter((x) => !x.required);
  if (optional.length) {
    if (pointer) lines.push('if p != nil {');
    for (const p of optional) lines.push(...setQuery(p, `p.${fieldName(p)}`, true).map((l) => (pointer ? `\t${l}` : l)));
    if (pointer) lines.push('}');
  }
  uses.add('net/url');
  if (op.query.some((p) => p.kind === 'integer' || p.kind === 'boolean')) uses.add('strconv');
  if (op.query.some((p) => p.kind === 'list')) uses.add('strings');
  return lines;
}

/** The Go shape of a list answer: the type to decode (a model, or a struct of the items), the items' type and field. */
function listShape(set: ModelSet, op: Operation, paged = false): { out: string; items: string; field: string } {
  const answer = op.answer.kind === 'json' && op.answer.unwrap ? op.answer : fail(op);
  const unwrap = answer.unwrap!;
  const list = answer.ref && modelName(set, answer.ref, 'go');
  const member = list ? set.byId.get(answer.ref!)!.fields.find((f) => f.wire === unwrap.wire) : undefined;
  const items = member ? goTypeText(set, member.type) : `[]${unwrap.ref ? goType(set, unwrap.ref) : 'any'}`;
  if (list) return { out: list, items, field: goName(unwrap.wire) };
  const pages = paged ? '\n\tHasMore bool `json:"has_more"`\n\tNextStartingAfter string `json:"next_starting_after"`' : '';
  return { out: `struct {\n\tItems ${items} \`json:"${unwrap.wire}"\`${pages}\n}`, items, field: 'Items' };
}

const fail = (op: Operation): never => {
  throw new Error(`clients/generate-models: operation ${op.id}: not a list answer`);
};

/** The call's fields: method, path, retry policy, and `query: values` when it has a query. */
function callFields(op: Operation): string[] {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, wire) => `" + url.PathEscape(${argName(op.pathParameters.find((p) => p.wire === wire)!)}) + "`);
  const pathText = `"${path}"`.replace(/ \+ ""$/, '');
  const fields = [`method: http.Method${op.method[0]}${op.method.slice(1).toLowerCase()}`, `path: ${pathText}`];
  fields.push(`policy: ${op.method === 'GET' || op.method === 'DELETE' || op.idempotencyKey ? 'retryAll' : 'retryRefused'}`);
  if (op.query.length) fields.push('query: values');
  return fields;
}

function method(set: ModelSet, op: Operation, uses: Set<string>): string {
  const receiver = op.resource ? `(s *${serviceName(op.resource)})` : '(c *Client)';
  const client = op.resource ? 's.c' : 'c';
  const args = ['ctx context.Context', ...op.pathParameters.map((p) => `${argName(p)} string`)];
  args.push(...op.query.filter((p) => p.required).map((p) => `${argName(p)} ${requiredType(p)}`));
  const body: string[] = [];
  const bodyType = op.body?.kind === 'json' ? (op.body.ref && GO_BODY_TYPES[op.body.ref]) || (op.body.ref && modelName(set, op.body.ref, 'go')) || 'any' : undefined;
  if (bodyType) args.push(`body ${bodyType}`);
  if (op.body?.kind === 'upload') args.push('file io.Reader');
  const byValue = GO_PARAMS_BY_VALUE.has(op.id);
  // Variadic, so that an operation gaining its first optional parameter keeps the calls written before (`Validate(ctx, p)`).
  if (hasParams(op)) {
    const type = `${byValue ? '' : '*'}${paramsName(op)}`;
    args.push(`params ...${type}`);
    body.push(`var p ${type}`, 'if len(params) > 0 {', '\tp = params[0]', '}');
  }

  const fields = callFields(op);
  if (op.query.length) body.push(...queryStatements(op, !byValue, uses));
  if (op.pathParameters.length) uses.add('net/url');
  if (op.idempotencyKey) fields.push('header: http.Header{"Idempotency-Key": {newIdempotencyKey()}}');
  if (op.body?.kind === 'upload') {
    uses.add('io');
    body.push(`contentType := ${JSON.stringify(op.body.contentType)}`, `if ${byValue ? '' : 'p != nil && '}p.ContentType != "" {`, '\tcontentType = p.ContentType', '}');
    fields.push('stream: uploadOf(file)', 'contentType: contentType');
  }
  if (op.answer.kind === 'download') fields.push('streaming: true');
  body.push(`cl := call{${fields.join(', ')}}`);
  if (bodyType) {
    const nilable = bodyType.startsWith('*') || bodyType === 'any';
    if (nilable) body.push('if body != nil {');
    body.push(`${nilable ? '\t' : ''}if err := ${client}.encode(&cl, body); err != nil {`, `${nilable ? '\t' : ''}\treturn ${op.answer.kind === 'none' ? '' : 'nil, '}err`, `${nilable ? '\t' : ''}}`);
    if (nilable) body.push('}');
  }

  let returns: string;
  if (op.answer.kind === 'download') {
    returns = '(io.ReadCloser, error)';
    uses.add('io');
    body.push(`return ${client}.download(ctx, cl)`);
  } else if (op.answer.kind === 'none') {
    returns = 'error';
    body.push(`return ${client}.roundTrip(ctx, cl, nil)`);
  } else {
    let out: string;
    let result: string;
    if (op.answer.unwrap) {
      const shape = listShape(set, op);
      out = shape.out.replace(/\n/g, '\n\t');
      returns = `(${shape.items}, error)`;
      result = `out.${shape.field}`;
    } else {
      out = GO_ANSWER_TYPES[op.id] ?? goType(set, op.answer.ref);
      const map = out.startsWith('map[');
      returns = map ? `(${out}, error)` : `(*${out}, error)`;
      result = map ? 'out' : '&out';
    }
    body.push(`var out ${out}`);
    // An answer type that says whether it was a replay (ValidateResult.Replayed) is told from the answer's header.
    const inspect = op.idempotencyKey ? 'replayedInto(&out)' : 'nil';
    body.push(`if err := ${client}.roundTripWith(ctx, cl, &out, ${inspect}); err != nil {`, '\treturn nil, err', '}', `return ${result}, nil`);
  }
  const doc = [`// ${methodName(op, 'go')}: ${docOf(op)}.`.replace(/\.\.$/, '.'), ...(op.description ? [`// ${sentence(op.description)}`] : [])];
  return `${doc.join('\n//\n')}\nfunc ${receiver} ${methodName(op, 'go')}(${args.join(', ')}) ${returns} {\n${body.map((l) => `\t${l}`).join('\n')}\n}\n`;
}

/**
 * The method that walks every page of a paged list (`ListAll`): an *Iter (pages.go) whose Next asks for the next page,
 * after the last item's id, only once the one before is used up. Its arguments are the list method's; each page is
 * one call with the same parameters (Limit the page's size), the client's timeout and retries.
 */
function pager(set: ModelSet, op: Operation, uses: Set<string>): string {
  if (!hasParams(op) || GO_PARAMS_BY_VALUE.has(op.id)) throw new Error(`clients/generate-models: the paged list ${op.id} has no params struct`);
  const receiver = op.resource ? `(s *${serviceName(op.resource)})` : '(c *Client)';
  const client = op.resource ? 's.c' : 'c';
  const args = ['ctx context.Context', ...op.pathParameters.map((p) => `${argName(p)} string`)];
  args.push(...op.query.filter((p) => p.required).map((p) => `${argName(p)} ${requiredType(p)}`), `params ...*${paramsName(op)}`);
  const shape = listShape(set, op, true);
  const item = shape.items.replace(/^\[\]/, '');
  // Each page is the list method's call on a copy of the params whose StartingAfter is the cursor.
  const lines = [
    `var p ${paramsName(op)}`,
    'if len(params) > 0 && params[0] != nil {',
    '\tp = *params[0]',
    '}',
    `return newIter(ctx, p.StartingAfter, func(ctx context.Context, after string) ([]${item}, bool, string, error) {`,
    '\tp.StartingAfter = after',
    ...queryStatements(op, false, uses).map((l) => `\t${l}`),
    `\tcl := call{${callFields(op).join(', ')}}`,
    `\tvar out ${shape.out.replace(/\n/g, '\n\t')}`,
    `\tif err := ${client}.roundTripWith(ctx, cl, &out, nil); err != nil {`,
    '\t\treturn nil, false, "", err',
    '\t}',
    `\treturn out.${shape.field}, out.HasMore, out.NextStartingAfter, nil`,
    '})',
  ];
  const doc = [
    `// ${pagerName(op, 'go')}: ${op.method} ${op.path}, every page: the items of ${methodName(op, 'go')} one at a time, for a loop on Next.`,
    '// A page (Limit items) is fetched when Next reaches it, after the last item\'s id; each page is one call with these params.',
  ];
  return `${doc.join('\n')}\nfunc ${receiver} ${pagerName(op, 'go')}(${args.join(', ')}) *Iter[${item}] {\n${lines.map((l) => `\t${l}`).join('\n')}\n}\n`;
}

/** resources.go. */
export function emitGoResources(set: ModelSet, operations: Operation[]): Map<string, string> {
  const resources = resourcesOf(operations);
  const uses = new Set(['context', 'net/http']);
  const parts: string[] = [];
  parts.push('// resources are the Client\'s resources, one field each (client.Batches), embedded in Client.\ntype resources struct {\n' +
    resources.map((r) => `\t// ${pascalCase(r)} has the ${r.replace(/_/g, ' ')} operations.\n\t${pascalCase(r)} *${serviceName(r)}`).join('\n') + '\n}\n');
  parts.push(`func (c *Client) initResources() {\n${resources.map((r) => `\tc.${pascalCase(r)} = &${serviceName(r)}{c}`).join('\n')}\n}\n`);
  for (const op of operations) {
    const struct = paramsStruct(op);
    if (struct) parts.push(struct.trimEnd() + '\n');
  }
  for (const r of resources) {
    parts.push(`// ${serviceName(r)} is client.${pascalCase(r)}.\ntype ${serviceName(r)} struct{ c *Client }\n`);
  }
  for (const op of operations) {
    parts.push(method(set, op, uses));
    if (pagedList(op)) parts.push(pager(set, op, uses));
  }
  const imports = [...uses].sort().map((u) => `\t"${u}"`).join('\n');
  const text = `// ${GENERATED_MARK}\n\npackage contactvalidator\n\nimport (\n${imports}\n)\n\n${parts.join('\n')}`;
  return new Map([['go/resources.go', text]]);
}
