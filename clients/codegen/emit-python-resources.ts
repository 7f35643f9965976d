/**
 * Prints the Python client's resource methods (`_resources.py`) and the client's base class with the root methods and
 * one attribute per resource (`_client_base.py`). A JSON body's members are keyword arguments; the transport
 * (`_http.py`) does the retries and the deadline; `_streams.py` makes an upload's body and reads a text answer.
 */
import { KEYWORDS, typeText } from './emit-python.js';
import { type Field, GENERATED_MARK, type ModelSet, modelName, pascalCase, sentence } from './model-ir.js';
import { docOf, methodName, type Operation, pagedList, pagerName, type Parameter, plainType, resourcesOf, snakeCase } from './operation-ir.js';

/** Resources whose hand-written subclass adds helpers that are not operations (`batches.wait`). */
export const PY_EXTENDED: Record<string, string> = { batches: 'Batches' };

/**
 * Body members that may be given by position too (`client.validate("1600 Amphitheatre…")`), in their order: a fixed
 * list, so that a member the schema gains (anywhere) is keyword-only and the positions stay.
 */
export const PY_POSITIONAL_BODY: Record<string, string[]> = { validate: ['address', 'email', 'phone', 'country', 'options'] };

const className = (resource: string) => (PY_EXTENDED[resource] ? `_${pascalCase(resource)}Operations` : pascalCase(resource));

const argName = (name: string) => (KEYWORDS.has(snakeCase(name)) ? `${snakeCase(name)}_` : snakeCase(name));

const paramType = (p: Parameter) => ({ string: 'str', integer: 'int', boolean: 'bool', list: 'Union[str, Sequence[str]]' })[p.kind];

const pyType = (set: ModelSet, ref: string | undefined, fallback = 'Dict[str, Any]') => (ref && modelName(set, ref, 'py')) || fallback;

/** The body's members: the model's fields, every variant's for a union (required where all require it). */
function bodyFields(set: ModelSet, op: Operation): Field[] | undefined {
  if (op.body?.kind !== 'json') return undefined;
  const model = op.body.ref ? set.byId.get(op.body.ref) : undefined;
  if (model?.union) {
    const variants = model.union.map((m) => (m.kind === 'model' ? set.byId.get(m.id)?.fields : undefined));
    if (variants.some((v) => !v)) return undefined;
    const wires = [...new Set(variants.flatMap((v) => v!.map((f) => f.wire)))];
    return wires.map((wire) => {
      const all = variants.map((v) => v!.find((f) => f.wire === wire));
      const first = all.find(Boolean)!;
      const same = all.every((f) => f && JSON.stringify(f.type) === JSON.stringify(first.type));
      return { ...first, type: same ? first.type : { kind: 'unknown' }, required: all.every((f) => f?.required) };
    });
  }
  if (model) return model.fields;
  const properties: Record<string, Record<string, unknown>> | undefined = op.body.schema.properties;
  if (!properties) return undefined;
  const required = new Set<string>((op.body.schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([wire, schema]) => ({
    wire, type: plainType(schema), nullable: false, required: required.has(wire), description: schema.description as string | undefined,
  }));
}

/** Words of `text` in lines of at most 120 characters, each starting with `indent`. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + word.length + 1 > 120) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, indent + line].join('\n');
}

/** `head(a, b)tail` on one line, or with one item a line when that is longer than 120 characters. */
function wrapped(head: string, items: string[], tail: string, indent: number): string {
  const one = `${head}${items.join(', ')}${tail}`;
  if (indent + one.length <= 110) return one;
  const pad = ' '.repeat(indent + 4);
  return `${head}\n${items.map((i) => `${pad}${i},\n`).join('')}${' '.repeat(indent)}${tail}`;
}

/**
 * The generator that walks every page of a paged list (`list_all`): it asks for the next page, after the last item's
 * id, only once the loop has used up the one before; each page is one call, with `limit` as its size and the same
 * timeout and retries. Its arguments are the list method's.
 */
function pager(set: ModelSet, op: Operation, self: string): string {
  const list = pagedList(op)!;
  const listed = method(set, op, self);
  // The list method's signature and request, with the generator's name and type, and the cursor as a variable.
  const signature = listed.slice(0, listed.indexOf(':\n') + 2)
    .replace(`def ${methodName(op, 'py')}(`, `def ${pagerName(op, 'py')}(`)
    .replace(/-> List\[([^\n]*)\]:\n$/, '-> Iterator[$1]:\n');
  const request = /return (self\.[\s\S]*?\))\.json\(\)\[/.exec(listed)![1].replace('"starting_after": starting_after', '"starting_after": after');
  const page = op.answer.kind === 'json' && op.answer.ref && modelName(set, op.answer.ref, 'py');
  const first = `\`\`${op.method} ${op.path}\`\`, every page: one item at a time.`;
  const doc = wrap(`The items of \`\`${methodName(op, 'py')}\`\`, as a generator: a page (\`\`limit\`\` items) is fetched when the loop reaches it, after the last item's id; each page is one call with these arguments.`, '        ');
  const lines = [
    'after = starting_after',
    'while True:',
    `    page${page ? `: ${page}` : ''} = ${request.replace(/\n/g, '\n    ')}.json()`,
    `    yield from page[${JSON.stringify(list.wire)}]`,
    '    if not page["has_more"] or not page["next_starting_after"]:',
    '        return',
    '    after = page["next_starting_after"]',
  ];
  return `${signature}        """${first}\n\n${doc}\n        """\n${lines.map((l) => `        ${l}\n`).join('')}`;
}

function method(set: ModelSet, op: Operation, self: string): string {
  const positional = op.pathParameters.map((p) => `${argName(p.name)}: str`);
  positional.push(...op.query.filter((p) => p.required).map((p) => `${argName(p.name)}: ${paramType(p)}`));
  const keyword: string[] = [];
  const lines: string[] = [];
  const fields = bodyFields(set, op);
  const call = [`"${op.method}"`, `${op.pathParameters.length ? 'f' : ''}"${op.path.replace(/\{([^}]+)\}/g, (_, wire) => `{_segment(${argName(op.pathParameters.find((p) => p.wire === wire)!.name)})}`)}"`];

  if (op.body?.kind === 'json' && fields) {
    const args = fields.map((f) => {
      let type = typeText(set, f.type);
      if (f.nullable) type = `Optional[${type}]`;
      return f.required ? `${argName(f.wire)}: ${type}` : `${argName(f.wire)}: ${f.nullable ? type : `Optional[${type}]`} = NOT_GIVEN`;
    });
    const byPosition = PY_POSITIONAL_BODY[op.id] ?? [];
    const at = (wire: string) => args[fields.findIndex((f) => f.wire === wire)];
    positional.push(...byPosition.filter((wire) => fields.some((f) => f.wire === wire)).map(at));
    const rest = fields.filter((f) => !byPosition.includes(f.wire)).map((f) => at(f.wire));
    keyword.push(...rest.filter((a) => !a.includes(' = ')), ...rest.filter((a) => a.includes(' = ')));
    // A member that may be null (or must be there) is sent as null when given None; another given None is left out.
    const nullable = fields.filter((f) => f.nullable || f.required).map((f) => JSON.stringify(f.wire));
    const members = fields.map((f) => `${JSON.stringify(f.wire)}: ${argName(f.wire)}`);
    lines.push(wrapped('body = _members({', members, `}${nullable.length ? `, nullable=(${nullable.join(', ')},)` : ''})`, 8));
    call.push('json_body=body');
  } else if (op.body?.kind === 'json') {
    positional.push(`body: ${pyType(set, op.body.ref)}${op.body.required ? '' : ' = None'}`);
    call.push(op.body.required ? 'json_body=body' : 'json_body=body if body is not None else {}');
  } else if (op.body?.kind === 'upload') {
    positional.push('file: FileInput');
    keyword.push(`content_type: str = ${JSON.stringify(op.body.contentType)}`);
    call.push('body=upload_body(file)', 'content_type=content_type');
  }
  keyword.push(...op.query.filter((p) => !p.required).map((p) => `${argName(p.name)}: Optional[${paramType(p)}] = None`));
  if (op.query.length) {
    const value = (p: Parameter) => (p.kind === 'list' ? `_joined(${argName(p.name)})` : argName(p.name));
    call.push(`query={${op.query.map((p) => `${JSON.stringify(p.wire)}: ${value(p)}`).join(', ')}}`);
  }
  if (op.idempotencyKey) {
    keyword.push('idempotency_key: Optional[str] = None');
    call.push('headers={"Idempotency-Key": idempotency_key or str(uuid.uuid4())}', 'idempotent=True');
  }
  if (op.answer.kind === 'download') {
    keyword.push('file: Union[None, str, "os.PathLike[str]", IO[bytes]] = None');
    call.push('headers={"Accept": "text/csv, application/problem+json"}', 'stream=True');
  }
  keyword.push('timeout: Optional[float] = None');
  call.push('timeout=timeout');

  const request = wrapped(`self.${self}.request(`, call, ')', 8);
  let returns: string;
  if (op.answer.kind === 'download') {
    returns = 'Union[BatchResult, int]';
    lines.push(`return download(${request}, file)`);
  } else if (op.answer.kind === 'none') {
    returns = 'None';
    lines.push(request);
  } else if (op.answer.unwrap) {
    returns = `List[${pyType(set, op.answer.unwrap.ref, 'Any')}]`;
    lines.push(`return ${request}.json()[${JSON.stringify(op.answer.unwrap.wire)}]  # type: ignore[no-any-return]`);
  } else {
    returns = pyType(set, op.answer.ref);
    lines.push(`return ${request}.json()  # type: ignore[no-any-return]`);
  }
  const args = ['self', ...positional, ...(keyword.length ? ['*', ...keyword] : [])];
  const signature = wrapped(`def ${methodName(op, 'py')}(`, args, `) -> ${returns}:`, 4);
  const first = `\`\`${op.method} ${op.path}\`\`${op.summary ? `: ${sentence(op.summary)}` : '.'}`;
  const docText = op.description ? `"""${first}\n\n${wrap(sentence(op.description), '        ')}\n        """` : `"""${first}"""`;
  return `    ${signature}\n        ${docText.replace(/\\/g, '\\\\')}\n${lines.map((l) => `        ${l}\n`).join('')}`;
}

function usedTypes(set: ModelSet, operations: Operation[]): string[] {
  const names = new Set<string>();
  const add = (ref?: string) => { const name = ref && modelName(set, ref, 'py'); if (name) names.add(name); };
  const addType = (text: string) => { for (const m of text.matchAll(/\b[A-Z][A-Za-z]+\b/g)) names.add(m[0]); };
  for (const op of operations) {
    if (op.answer.kind === 'json') {
      add(op.answer.ref);
      add(op.answer.unwrap?.ref);
    }
    for (const f of bodyFields(set, op) ?? []) addType(typeText(set, f.type));
    if (op.body?.kind === 'json' && !bodyFields(set, op)) add(op.body.ref);
  }
  for (const builtin of ['Any', 'Dict', 'List', 'Union', 'Optional', 'Literal']) names.delete(builtin);
  return [...names].sort();
}

const header = (what: string) => `# ${GENERATED_MARK}\n"""${what}"""\n\nfrom __future__ import annotations\n\n`;

/** `_resources.py` and `_client_base.py`. */
export function emitPythonResources(set: ModelSet, operations: Operation[]): Map<string, string> {
  const resources = resourcesOf(operations);
  let out = header('The resources\' methods, one per operation of the OpenAPI description.');
  out += 'import os\nimport uuid\nfrom typing import IO, Any, Dict, Iterator, List, Literal, Optional, Sequence, Union\n\n';
  out += 'from ._http import Transport\nfrom ._streams import NOT_GIVEN, BatchResult, FileInput, _joined, _members, _segment, download, upload_body\n';
  out += `from .types import ${usedTypes(set, operations).join(', ')}\n\n`;
  for (const resource of resources) {
    out += `\nclass ${className(resource)}:\n    """\`\`client.${resource}\`\`."""\n\n    def __init__(self, transport: Transport) -> None:\n        self._t = transport\n`;
    for (const op of operations.filter((o) => o.resource === resource)) {
      out += `\n${method(set, op, '_t')}`;
      if (pagedList(op)) out += `\n${pager(set, op, '_t')}`;
    }
    out += '\n';
  }
  out += '\nclass _RootOperations:\n    """The client\'s own methods; ``ContactValidator`` adds the configuration."""\n\n    _transport: Transport\n';
  for (const op of operations.filter((o) => !o.resource)) {
    out += `\n${method(set, op, '_transport')}`;
    if (pagedList(op)) out += `\n${pager(set, op, '_transport')}`;
  }

  let base = header('The client\'s base: its own methods and one attribute per resource (``client.batches``).');
  const plain = resources.filter((r) => !PY_EXTENDED[r]);
  base += `from ._http import Transport\nfrom ._resources import ${['_RootOperations', ...plain.map(className)].sort().join(', ')}\n`;
  base += `from .resources import ${resources.filter((r) => PY_EXTENDED[r]).map((r) => PY_EXTENDED[r]).join(', ')}\n\n\n`;
  base += 'class _ContactValidatorBase(_RootOperations):\n    def __init__(self, transport: Transport) -> None:\n        self._transport = transport\n';
  for (const r of resources) base += `        self.${r} = ${PY_EXTENDED[r] ?? className(r)}(transport)\n`;
  return new Map([
    ['python/src/contact_validator/_resources.py', out.replace(/\n+$/, '\n')],
    ['python/src/contact_validator/_client_base.py', base],
  ]);
}
