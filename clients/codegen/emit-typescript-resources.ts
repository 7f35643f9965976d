/**
 * Prints the TypeScript client's resource methods (src/resources.ts) and the client's base class that carries the
 * root methods and one property per resource (src/client-base.ts). The transport (src/transport.ts) does the retries
 * and the deadline; src/streams.ts turns an upload source into a body and a text answer into a BatchResult.
 */
import { type ModelSet, GENERATED_MARK, modelName, pascalCase, sentence } from './model-ir.js';
import { camelCase, docOf, methodName, type Operation, pagedList, pagerName, type Parameter, resourcesOf } from './operation-ir.js';

/** Resources whose hand-written subclass adds helpers that are not operations (`batches.waitFor`): module and class. */
export const TS_EXTENDED: Record<string, { module: string; name: string }> = {
  batches: { module: './batches.js', name: 'Batches' },
};

const className = (resource: string) => pascalCase(resource);
const generatedClassName = (resource: string) => (TS_EXTENDED[resource] ? `${className(resource)}Operations` : className(resource));

const tsType = (set: ModelSet, ref: string | undefined) => (ref && modelName(set, ref, 'ts')) || 'Record<string, unknown>';

const paramType = (p: Parameter) => ({ string: 'string', integer: 'number', boolean: 'boolean', list: 'string[]' })[p.kind];

const optionsName = (op: Operation) => `${pascalCase(op.id)}Options`;

/** Whether the method takes an options type of its own (optional query parameters, a key, an upload's type). */
const ownOptions = (op: Operation) => op.query.some((p) => !p.required) || op.idempotencyKey || op.body?.kind === 'upload';

function comment(lines: string[], indent: string): string {
  const text = lines.filter(Boolean);
  return `${indent}/**\n${text.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function optionsInterface(op: Operation): string {
  if (!ownOptions(op)) return '';
  const members = op.query.filter((p) => !p.required).map((p) => {
    const doc = p.description ? `  /** ${sentence(p.description)} */\n` : '';
    return `${doc}  ${p.name}?: ${paramType(p)};\n`;
  });
  if (op.idempotencyKey) members.push('  /** Sent as `Idempotency-Key`; a fresh UUID by default, kept for every retry of this call. */\n  idempotencyKey?: string;\n');
  if (op.body?.kind === 'upload') members.push(`  /** \`${op.body.contentType}\` by default. */\n  contentType?: string;\n`);
  return `/** The options of \`${op.method} ${op.path}\`. */\nexport interface ${optionsName(op)} extends RequestOptions {\n${members.join('')}}\n\n`;
}

/** The call's method, path and query; `values` replaces a query parameter's variable (`starting_after: after`). */
function callFields(op: Operation, values: Record<string, string> = {}): string[] {
  const path = '`' + op.path.replace(/\{([^}]+)\}/g, (_, wire) => `\${encodeURIComponent(${op.pathParameters.find((p) => p.wire === wire)!.name})}`) + '`';
  const call = [`method: '${op.method}'`, `path: ${path}`];
  if (op.query.length) {
    const value = (p: Parameter) => values[p.wire] ?? (p.kind === 'list' ? `${p.name}?.join(',')` : p.name);
    call.push(`query: { ${op.query.map((p) => `${p.wire}: ${value(p)}`).join(', ')} }`);
  }
  return call;
}

/** The leading arguments: path parameters, required query parameters, the body. */
function leadingArguments(set: ModelSet, op: Operation): string[] {
  const args = op.pathParameters.map((p) => `${p.name}: string`);
  args.push(...op.query.filter((p) => p.required).map((p) => `${p.name}: ${paramType(p)}`));
  if (op.body?.kind === 'json') args.push(`body: ${tsType(set, op.body.ref)}${op.body.required ? '' : ' = {}'}`);
  if (op.body?.kind === 'upload') args.push('source: UploadSource');
  return args;
}

/**
 * The method that walks every page of a paged list (`listAll`): an async generator asking for the next page, after
 * the last item's id, only once the loop has used up the one before; each page is one call, with the options'
 * `limit` as its size and the same timeout, signal and retries.
 */
function pager(set: ModelSet, op: Operation): string {
  const list = pagedList(op)!;
  const item = list.ref ? tsType(set, list.ref) : 'unknown';
  const type = (op.answer.kind === 'json' && op.answer.ref && modelName(set, op.answer.ref, 'ts'))
    || `{ ${list.wire}: ${item}[]; has_more: boolean; next_starting_after: string | null }`;
  const startingAfter = op.query.find((p) => p.wire === 'starting_after')!;
  const optional = op.query.filter((p) => !p.required).map((p) => p.name);
  const lines = [
    `const { ${optional.join(', ')}, ...rest } = options;`,
    `let after = ${startingAfter.name};`,
    'for (;;) {',
    `  const page = await this.transport.json<${type}>({ ${callFields(op, { starting_after: 'after' }).join(', ')} }, rest);`,
    `  yield* page.${list.wire};`,
    '  if (!page.has_more || !page.next_starting_after) return;',
    '  after = page.next_starting_after;',
    '}',
  ];
  const args = [...leadingArguments(set, op), `options: ${ownOptions(op) ? optionsName(op) : 'RequestOptions'} = {}`];
  const doc = comment([
    `${op.method} ${op.path}, every page: one item at a time, for \`for await\`.`,
    `The items of \`${methodName(op, 'ts')}\`: a page (\`limit\` items) is fetched when the loop reaches it, after the last item's id; each page is one call with these options.`,
  ], '  ');
  return `${doc}  async *${pagerName(op, 'ts')}(${args.join(', ')}): AsyncGenerator<${item}, void, undefined> {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
}

function method(set: ModelSet, op: Operation): string {
  const args = leadingArguments(set, op);
  args.push(ownOptions(op) ? `options: ${optionsName(op)} = {}` : 'options: RequestOptions = {}');

  const optional = op.query.filter((p) => !p.required);
  const picked = [...optional.map((p) => p.name), ...(op.idempotencyKey ? ['idempotencyKey = await randomUUID()'] : [])];
  if (op.body?.kind === 'upload') picked.push('contentType');
  const lines: string[] = [];
  if (picked.length) lines.push(`const { ${picked.join(', ')}, ...rest } = options;`);
  const rest = picked.length ? 'rest' : 'options';
  const call = callFields(op);
  if (op.body?.kind === 'json') call.push('json: body');
  if (op.body?.kind === 'upload') call.push(`contentType: contentType ?? '${op.body.contentType}'`, '...(await uploadBody(source))');
  if (op.idempotencyKey) call.push('idempotencyKey');
  const callText = `{ ${call.join(', ')} }`;

  let returns: string;
  if (op.answer.kind === 'download') {
    returns = 'BatchResult';
    lines.push(`const response = await this.transport.stream(${callText}, { ...${rest}, headers: { accept: 'text/csv, application/problem+json', ...${rest}.headers } });`);
    lines.push('return new BatchResult(response);');
  } else if (op.answer.kind === 'none') {
    returns = 'void';
    lines.push(`await this.transport.json<void>(${callText}, ${rest});`);
  } else if (op.answer.unwrap) {
    const item = op.answer.unwrap.ref ? tsType(set, op.answer.unwrap.ref) : 'unknown';
    returns = `${item}[]`;
    const list = modelName(set, op.answer.ref!, 'ts');
    const type = list ?? `{ ${op.answer.unwrap.wire}: ${returns} }`;
    lines.push(`return (await this.transport.json<${type}>(${callText}, ${rest})).${op.answer.unwrap.wire};`);
  } else {
    returns = tsType(set, op.answer.ref);
    lines.push(`return this.transport.json<${returns}>(${callText}, ${rest});`);
  }
  const doc = comment([docOf(op), ...(op.description ? [sentence(op.description)] : [])], '  ');
  return `${doc}  async ${methodName(op, 'ts')}(${args.join(', ')}): Promise<${returns}> {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
}

function usedTypes(set: ModelSet, operations: Operation[]): string[] {
  const names = new Set<string>();
  const add = (ref?: string) => { const name = ref && modelName(set, ref, 'ts'); if (name) names.add(name); };
  for (const op of operations) {
    if (op.body?.kind === 'json') add(op.body.ref);
    if (op.answer.kind === 'json') {
      add(op.answer.ref);
      add(op.answer.unwrap?.ref);
    }
  }
  return [...names].sort();
}

const header = (what: string) => `// ${GENERATED_MARK}\n/** ${what} */\n`;

/** src/resources.ts and src/client-base.ts. */
export function emitTypeScriptResources(set: ModelSet, operations: Operation[]): Map<string, string> {
  const resources = resourcesOf(operations);
  const imports = [
    "import { type RequestOptions, type Transport, randomUUID } from './transport.js';",
    "import { BatchResult, type UploadSource, uploadBody } from './streams.js';",
    `import type { ${usedTypes(set, operations).join(', ')} } from './models.js';`,
  ].join('\n');
  const root = operations.filter((op) => !op.resource);
  let out = `${header('The resources\' methods, one per operation of the OpenAPI description.')}${imports}\n\n`;
  for (const op of operations) out += optionsInterface(op);
  for (const resource of resources) {
    out += `/** \`client.${camelCase(resource)}\`. */\nexport class ${generatedClassName(resource)} {\n  constructor(protected readonly transport: Transport) {}\n`;
    for (const op of operations.filter((o) => o.resource === resource)) {
      out += `\n${method(set, op)}`;
      if (pagedList(op)) out += `\n${pager(set, op)}`;
    }
    out += '}\n\n';
  }
  out += '/** The client\'s own methods; ContactValidator (client.ts) adds the configuration. */\nexport class RootOperations {\n';
  out += '  constructor(protected readonly transport: Transport) {}\n';
  for (const op of root) {
    out += `\n${method(set, op)}`;
    if (pagedList(op)) out += `\n${pager(set, op)}`;
  }
  out += '}\n';

  const extended = resources.filter((r) => TS_EXTENDED[r]);
  const plain = resources.filter((r) => !TS_EXTENDED[r]);
  let base = `${header('The client\'s base: its own methods and one property per resource (`client.batches`).')}`;
  base += "import type { Transport } from './transport.js';\n";
  base += `import { ${['RootOperations', ...plain.map(className)].join(', ')} } from './resources.js';\n`;
  for (const r of extended) base += `import { ${TS_EXTENDED[r].name} } from '${TS_EXTENDED[r].module}';\n`;
  base += '\nexport class ContactValidatorBase extends RootOperations {\n';
  for (const r of resources) base += `  readonly ${camelCase(r)}: ${TS_EXTENDED[r]?.name ?? className(r)};\n`;
  base += '\n  constructor(transport: Transport) {\n    super(transport);\n';
  for (const r of resources) base += `    this.${camelCase(r)} = new ${TS_EXTENDED[r]?.name ?? className(r)}(transport);\n`;
  base += '  }\n}\n';
  return new Map([['typescript/src/resources.ts', out.replace(/\n+$/, '\n')], ['typescript/src/client-base.ts', base]]);
}
