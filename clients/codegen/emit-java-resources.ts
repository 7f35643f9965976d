/**
 * Prints the Java client's resource methods: one class per resource (`client.batches()`), one method per operation,
 * and ContactValidatorOperations, the base of ContactValidator with the root methods and the resources' accessors.
 * Optional query parameters are trailing arguments, with an overload for each shorter list; an object body's members
 * are arguments too (`updateAccount(Long lowBalanceThreshold)`), unless the body has a hand-written builder. The
 * transport (Transport.java) does the retries and the deadline; Bodies.java builds the bodies.
 */
import { javaTypeText } from './emit-java.js';
import { type Field, GENERATED_MARK, type ModelSet, modelName, pascalCase, sentence } from './model-ir.js';
import { camelCase, docOf, methodName, type Operation, pagedList, pagerName, type Parameter, plainType, resourcesOf } from './operation-ir.js';

const PACKAGE = 'com.contactvalidator';

/** Resources whose hand-written subclass adds methods that are not operations, or the names they had. */
export const JAVA_EXTENDED = new Set(['keys', 'batches', 'connectors']);

/** Bodies given as a hand-written builder's product (its `toJson()` is the body). */
export const JAVA_BODY_TYPES: Record<string, string> = {
  ValidateRequest: 'ValidateRequest',
  CreateConnectorRequest: 'ConnectorParams',
  ConnectorPatch: 'ConnectorParams',
};

/** Optional query parameters given as a hand-written builder (`queryString()`, and an upload's `contentType()`). */
export const JAVA_PARAMS_TYPES: Record<string, string> = { createBatch: 'BatchParams' };

/** An object body with more members than this is taken whole, as a map. */
const MAX_BODY_ARGUMENTS = 6;

const BOXED: Record<string, string> = { long: 'Long', double: 'Double', boolean: 'Boolean' };

const className = (resource: string) => (JAVA_EXTENDED.has(resource) ? `${pascalCase(resource)}Operations` : pascalCase(resource));
const publicClass = (resource: string) => pascalCase(resource);
const paramType = (p: Parameter) => ({ string: 'String', integer: 'Integer', boolean: 'Boolean', list: 'List<String>' })[p.kind];

function javadoc(lines: string[], indent: string): string {
  const html = lines.filter(Boolean).map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/\*\//g, '*&#47;').replace(/`([^`]+)`/g, '{@code $1}').replace(/@/g, (m, i, s) => (s.slice(i - 1, i) === '{' ? m : '&#64;')));
  return `${indent}/**\n${html.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

interface Argument { type: string; name: string }

/** The body's members as arguments, when the body is a small object without a builder. */
function bodyMembers(set: ModelSet, op: Operation, imports: Set<string>): { fields: Field[]; args: Argument[] } | undefined {
  if (op.body?.kind !== 'json' || (op.body.ref && JAVA_BODY_TYPES[op.body.ref])) return undefined;
  const model = op.body.ref ? set.byId.get(op.body.ref) : undefined;
  let fields: Field[] | undefined = model && !model.union ? model.fields : undefined;
  if (!fields && op.body.schema.properties) {
    const required = new Set<string>(op.body.schema.required ?? []);
    fields = Object.entries<Record<string, unknown>>(op.body.schema.properties).map(([wire, s]) => ({
      wire, type: plainType(s), nullable: false, required: required.has(wire), description: s.description as string | undefined,
    }));
  }
  if (!fields || fields.length > MAX_BODY_ARGUMENTS) return undefined;
  const args = fields.map((f) => {
    const type = javaTypeText(set, f.type, imports);
    return { type: BOXED[type] ?? type, name: camelCase(f.wire) };
  });
  return { fields, args };
}

function answerType(set: ModelSet, op: Operation, imports: Set<string>): { type: string; read: (call: string) => string } {
  if (op.answer.kind === 'download') {
    imports.add('java.io.InputStream');
    return { type: 'InputStream', read: (call) => `transport.stream(${call})` };
  }
  if (op.answer.kind === 'none') return { type: 'void', read: (call) => `transport.json(${call}, null)` };
  const list = op.answer.ref && modelName(set, op.answer.ref, 'java');
  if (op.answer.unwrap) {
    const item = op.answer.unwrap.ref && modelName(set, op.answer.unwrap.ref, 'java');
    if (list && item) {
      imports.add('java.util.List');
      return { type: `List<${item}>`, read: (call) => `transport.<${list}>json(${call}, ${list}.class).${camelCase(op.answer.kind === 'json' ? op.answer.unwrap!.wire : '')}()` };
    }
    imports.add('com.google.gson.JsonArray');
    imports.add('com.google.gson.JsonObject');
    return { type: 'JsonArray', read: (call) => `transport.<JsonObject>json(${call}, JsonObject.class).getAsJsonArray("${op.answer.kind === 'json' ? op.answer.unwrap!.wire : ''}")` };
  }
  if (list) return { type: list, read: (call) => `transport.json(${call}, ${list}.class)` };
  imports.add('com.google.gson.JsonObject');
  return { type: 'JsonObject', read: (call) => `transport.json(${call}, JsonObject.class)` };
}

function methods(set: ModelSet, op: Operation, imports: Set<string>, asMap = false): string {
  const name = methodName(op, 'java');
  const answer = answerType(set, op, imports);
  const returns = answer.type === 'void' ? '' : 'return ';
  const leading: Argument[] = op.pathParameters.map((p) => ({ type: 'String', name: camelCase(p.name) }));
  leading.push(...op.query.filter((p) => p.required).map((p) => ({ type: paramType(p), name: camelCase(p.name) })));
  const flat = bodyMembers(set, op, imports);
  const members = asMap ? undefined : flat;
  if (asMap) imports.add('java.util.Map');
  const bodyType = op.body?.kind === 'json' && !members ? (asMap ? 'Map<String, ?>' : (op.body.ref && JAVA_BODY_TYPES[op.body.ref]) || 'Object') : undefined;
  if (members) leading.push(...members.args);
  if (bodyType) leading.push({ type: bodyType, name: 'body' });
  const paramsType = JAVA_PARAMS_TYPES[op.id];
  const optional = paramsType ? [] : op.query.filter((p) => !p.required);
  if (op.query.some((p) => p.kind === 'list') || members?.args.some((a) => a.type.startsWith('List'))) imports.add('java.util.List');

  const lines: string[] = [];
  for (const p of op.pathParameters) lines.push(`Objects.requireNonNull(${camelCase(p.name)}, "${camelCase(p.name)}");`);
  let path = `"${op.path.replace(/\{([^}]+)\}/g, (_, wire) => `" + Paths.segment(${camelCase(op.pathParameters.find((p) => p.wire === wire)!.name)}) + "`)}"`.replace(/ \+ ""$/, '');
  const queried = paramsType ? [] : op.query;
  if (queried.length) {
    imports.add('java.util.LinkedHashMap');
    imports.add('java.util.Map');
    lines.push('Map<String, String> parameters = new LinkedHashMap<>();');
    for (const p of queried) {
      const value = camelCase(p.name);
      const text = p.kind === 'list' ? `String.join(",", ${value})` : p.kind === 'string' ? value : `${value}.toString()`;
      lines.push(`parameters.put("${p.wire}", ${p.kind === 'string' ? text : `${value} == null ? null : ${text}`});`);
    }
    path += ' + Paths.query(parameters)';
  }
  if (paramsType) path += ' + (params == null ? "" : params.queryString())';
  let body = 'null';
  if (members) {
    const puts = members.fields.map((f, i) => `\n        .put("${f.wire}", ${members.args[i].name}, ${f.nullable || f.required})`).join('');
    lines.push(`String body = new Bodies.Members()${puts}\n        .json();`);
    body = 'body';
  } else if (bodyType) {
    body = bodyType === 'Object' || asMap ? 'Json.GSON.toJson(body)' : 'body.toJson()';
    lines.push('Objects.requireNonNull(body, "body");');
  }
  lines.push(`Transport.Call call = Transport.Call.json("${op.method}", ${path}, ${body})${op.idempotencyKey ? '.withIdempotencyKey()' : ''};`);
  if (op.body?.kind === 'upload') {
    if (!paramsType) throw new Error(`clients/generate-models: the upload ${op.id} needs a params type in JAVA_PARAMS_TYPES`);
    lines.push('call.body = upload.publisher;', 'call.replayable = upload.replayable;');
    lines.push(`call.contentType = params == null ? "${op.body.contentType}" : params.contentType();`);
  }
  lines.push(`${returns}${answer.read('call')};`);

  const doc = javadoc([`{@code ${op.method} ${op.path}}${op.summary ? `: ${sentence(op.summary)}` : '.'}`, ...(op.description ? [sentence(op.description)] : [])], '  ');
  const signature = (args: Argument[]) => args.map((a) => `${a.type} ${a.name}`).join(', ');
  const all = [...leading, ...optional.map((p) => ({ type: paramType(p), name: camelCase(p.name) }))];
  let out = '';
  if (op.body?.kind === 'upload') {
    imports.add('java.io.InputStream');
    imports.add('java.nio.file.Path');
    const rest = [...leading, { type: paramsType, name: 'params' }];
    for (const [type, arg] of [['Path', 'file'], ['byte[]', 'csv'], ['InputStream', 'csv']]) {
      out += `${doc}  public ${answer.type} ${name}(${signature([{ type, name: arg }, ...rest])}) {\n    ${returns}${name}(Bodies.upload(${arg}), ${rest.map((a) => a.name).join(', ')});\n  }\n\n`;
    }
    return `${out}  private ${answer.type} ${name}(${signature([{ type: 'Bodies.Upload', name: 'upload' }, ...rest])}) {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
  }
  if (paramsType) all.push({ type: paramsType, name: 'params' });
  out += `${doc}  public ${answer.type} ${name}(${signature(all)}) {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
  // The same call with fewer optional arguments: the ones left out are not sent.
  for (let n = optional.length - 1; n >= 0; n--) {
    const args = [...leading, ...optional.slice(0, n).map((p) => ({ type: paramType(p), name: camelCase(p.name) }))];
    const passed = [...args.map((a) => a.name), ...optional.slice(n).map(() => 'null')];
    out += `\n  /** {@link #${name}} without ${optional.slice(n).map((p) => `{@code ${camelCase(p.name)}}`).join(', ')}. */\n`;
    out += `  public ${answer.type} ${name}(${signature(args)}) {\n    ${returns}${name}(${passed.join(', ')});\n  }\n`;
  }
  // With several members, the body may also be given whole: a call written so keeps compiling when the body gains one.
  if (!asMap && flat && flat.args.length >= 2) out += `\n${methods(set, op, imports, true)}`;
  return out;
}

/**
 * The method that walks every page of a paged list (`listAll`): a PagedIterable (hand-written) whose iterator asks for
 * the next page, after the last item's id, only once the one before is used up. Its arguments are the list method's
 * (`startingAfter` the first cursor), with the same overloads; each page is one call with them (`limit` its size).
 */
function pager(set: ModelSet, op: Operation, imports: Set<string>): string {
  const list = pagedList(op)!;
  if (op.body || JAVA_PARAMS_TYPES[op.id]) throw new Error(`clients/generate-models: the paged list ${op.id} has a body or a params type`);
  const name = pagerName(op, 'java');
  const leading: Argument[] = op.pathParameters.map((p) => ({ type: 'String', name: camelCase(p.name) }));
  leading.push(...op.query.filter((p) => p.required).map((p) => ({ type: paramType(p), name: camelCase(p.name) })));
  const optional = op.query.filter((p) => !p.required);
  const pageModel = op.answer.kind === 'json' && op.answer.ref ? modelName(set, op.answer.ref, 'java') : undefined;
  const itemModel = list.ref ? modelName(set, list.ref, 'java') : undefined;
  const item = pageModel && itemModel ? itemModel : 'JsonElement';
  imports.add('java.util.LinkedHashMap');
  imports.add('java.util.Map');
  if (op.query.some((p) => p.kind === 'list')) imports.add('java.util.List');

  const lines: string[] = [];
  for (const p of op.pathParameters) lines.push(`Objects.requireNonNull(${camelCase(p.name)}, "${camelCase(p.name)}");`);
  const startingAfter = camelCase(op.query.find((p) => p.wire === 'starting_after')!.name);
  lines.push(`return new PagedIterable<>(${startingAfter}, after -> {`);
  lines.push('  Map<String, String> parameters = new LinkedHashMap<>();');
  for (const p of op.query) {
    const value = p.wire === 'starting_after' ? 'after' : camelCase(p.name);
    const text = p.kind === 'list' ? `String.join(",", ${value})` : p.kind === 'string' ? value : `${value}.toString()`;
    lines.push(`  parameters.put("${p.wire}", ${p.kind === 'string' ? text : `${value} == null ? null : ${text}`});`);
  }
  const path = `"${op.path.replace(/\{([^}]+)\}/g, (_, wire) => `" + Paths.segment(${camelCase(op.pathParameters.find((p) => p.wire === wire)!.name)}) + "`)}"`.replace(/ \+ ""$/, '');
  lines.push(`  Transport.Call call = Transport.Call.json("${op.method}", ${path} + Paths.query(parameters), null);`);
  if (item !== 'JsonElement') {
    lines.push(`  ${pageModel} page = transport.<${pageModel}>json(call, ${pageModel}.class);`);
    lines.push(`  return new PagedIterable.Page<>(page.${camelCase(list.wire)}(), page.hasMore(), page.nextStartingAfter());`);
  } else {
    imports.add('com.google.gson.JsonElement');
    imports.add('com.google.gson.JsonObject');
    lines.push('  JsonObject page = transport.<JsonObject>json(call, JsonObject.class);');
    lines.push('  JsonElement next = page.get("next_starting_after");');
    lines.push(`  return new PagedIterable.Page<>(page.getAsJsonArray("${list.wire}").asList(), page.get("has_more").getAsBoolean(), next == null || next.isJsonNull() ? null : next.getAsString());`);
  }
  lines.push('});');

  const doc = javadoc([
    `{@code ${op.method} ${op.path}}, every page: the items of {@link #${methodName(op, 'java')}} one at a time, for a for-each loop or {@code stream()}.`,
    'A page ({@code limit} items) is fetched when the iteration reaches it, after the last item\'s id; each page is one call with these arguments.',
  ], '  ');
  const signature = (args: Argument[]) => args.map((a) => `${a.type} ${a.name}`).join(', ');
  const all = [...leading, ...optional.map((p) => ({ type: paramType(p), name: camelCase(p.name) }))];
  const returns = `PagedIterable<${item}>`;
  let out = `${doc}  public ${returns} ${name}(${signature(all)}) {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n`;
  for (let n = optional.length - 1; n >= 0; n--) {
    const args = [...leading, ...optional.slice(0, n).map((p) => ({ type: paramType(p), name: camelCase(p.name) }))];
    const passed = [...args.map((a) => a.name), ...optional.slice(n).map(() => 'null')];
    out += `\n  /** {@link #${name}} without ${optional.slice(n).map((p) => `{@code ${camelCase(p.name)}}`).join(', ')}. */\n`;
    out += `  public ${returns} ${name}(${signature(args)}) {\n    return ${name}(${passed.join(', ')});\n  }\n`;
  }
  return out;
}

function file(imports: Set<string>, body: string): string {
  imports.add('java.util.Objects');
  const lines = [...imports].sort().map((i) => `import ${i};`).join('\n');
  return `// ${GENERATED_MARK}\npackage ${PACKAGE};\n\n${lines}\n\n${body}`;
}

/** One file per resource class, and ContactValidatorOperations.java. */
export function emitJavaResources(set: ModelSet, operations: Operation[]): Map<string, string> {
  const files = new Map<string, string>();
  const resources = resourcesOf(operations);
  for (const resource of resources) {
    const imports = new Set<string>();
    const name = className(resource);
    const extended = JAVA_EXTENDED.has(resource);
    const body = operations.filter((op) => op.resource === resource)
      .flatMap((op) => [methods(set, op, imports), ...(pagedList(op) ? [pager(set, op, imports)] : [])]).join('\n');
    const head = `/** {@code client.${camelCase(resource)}()}: the ${resource.replace(/_/g, ' ')} operations${extended ? ` (${publicClass(resource)} adds to them)` : ''}. */\n` +
      `public ${extended ? 'abstract ' : ''}class ${name} {\n  final Transport transport;\n\n  ${name}(Transport transport) {\n    this.transport = transport;\n  }\n\n`;
    files.set(`${name}.java`, file(imports, `${head}${body}}\n`));
  }
  const imports = new Set<string>();
  const root = operations.filter((op) => !op.resource)
    .flatMap((op) => [methods(set, op, imports), ...(pagedList(op) ? [pager(set, op, imports)] : [])]).join('\n');
  let head = '/** The client\'s own methods and its resources; ContactValidator adds the configuration. */\npublic abstract class ContactValidatorOperations {\n  final Transport transport;\n';
  for (const r of resources) head += `  private final ${publicClass(r)} ${camelCase(r)};\n`;
  head += '\n  ContactValidatorOperations(Transport transport) {\n    this.transport = transport;\n';
  for (const r of resources) head += `    this.${camelCase(r)} = new ${publicClass(r)}(transport);\n`;
  head += '  }\n';
  for (const r of resources) head += `\n  /** The ${r.replace(/_/g, ' ')} operations. */\n  public ${publicClass(r)} ${camelCase(r)}() {\n    return ${camelCase(r)};\n  }\n`;
  files.set('ContactValidatorOperations.java', file(imports, `${head}\n${root}}\n`));
  return files;
}
