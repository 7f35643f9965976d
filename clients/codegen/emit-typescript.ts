/** The TypeScript client's models: interfaces, and each vocabulary as a const object plus an open union type. */
import { type Field, GENERATED_MARK, type Model, type ModelSet, modelName, modelsFor, ownFields, pascalCase, type TypeRef, type Vocabulary } from './model-ir.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function doc(text: string | undefined, indent = ''): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';
}

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function typeText(set: ModelSet, type: TypeRef): string {
  switch (type.kind) {
    case 'string': case 'date-time': case 'date': return 'string';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'unknown': return 'unknown';
    case 'literal': return quote(type.value);
    case 'vocabulary': return type.vocabulary.entry.ts!;
    case 'values': return `Open<${type.values.map(quote).join(' | ')}>`;
    case 'model': {
      const name = modelName(set, type.id, 'ts');
      if (name) return name;
      const model = set.byId.get(type.id)!;
      return typeText(set, { kind: 'object', fields: model.fields, open: model.open });
    }
    case 'array': {
      const items = typeText(set, type.items);
      return /^[A-Za-z0-9_]+$/.test(items) ? `${items}[]` : `Array<${items}>`;
    }
    case 'map': return `Record<string, ${typeText(set, type.values)}>`;
    case 'union': return type.members.map((m) => typeText(set, m)).join(' | ');
    case 'object': return `{ ${[...type.fields.map((f) => fieldText(set, f)), ...(type.open ? ['[extra: string]: unknown'] : [])].join('; ')} }`;
    case 'hand-written': return type.names.ts ?? typeText(set, type.fallback);
  }
}

function fieldText(set: ModelSet, field: Field): string {
  const name = IDENTIFIER.test(field.wire) ? field.wire : quote(field.wire);
  return `${name}${field.required ? '' : '?'}: ${typeText(set, field.type)}${field.nullable ? ' | null' : ''}`;
}

function vocabularyText(vocabulary: Vocabulary): string {
  const name = vocabulary.entry.ts!;
  const constants = vocabulary.values.map((value) => `  ${vocabulary.entry.tsConstants?.[value] ?? pascalCase(value)}: ${quote(value)},`);
  return `${doc(vocabulary.description)}export const ${name} = {\n${constants.join('\n')}\n} as const;\n` +
    `export type ${name} = Open<(typeof ${name})[keyof typeof ${name}]>;\n`;
}

function modelText(set: ModelSet, model: Model): string {
  const name = model.names.ts!;
  if (model.union) return `${doc(model.description)}export type ${name} = ${model.union.map((m) => typeText(set, m)).join(' | ')};\n`;
  const base = model.extends ? ` extends ${modelName(set, model.extends, 'ts')}` : '';
  const lines = ownFields(set, model).map((f) => `${doc(f.description, '  ')}  ${fieldText(set, f)};`);
  if (model.open && !base) lines.push('  [extra: string]: unknown;');
  return `${doc(model.description)}export interface ${name}${base} {\n${lines.join('\n')}\n}\n`;
}

export function emitTypeScript(set: ModelSet): string {
  const handWritten = new Set<string>();
  const collect = (type: TypeRef): void => {
    if (type.kind === 'hand-written' && type.names.ts) handWritten.add(type.names.ts);
    if (type.kind === 'array') collect(type.items);
    if (type.kind === 'map') collect(type.values);
    if (type.kind === 'union') type.members.forEach(collect);
    if (type.kind === 'object') type.fields.forEach((f) => collect(f.type));
  };
  const models = modelsFor(set, 'ts');
  models.forEach((m) => { m.fields.forEach((f) => collect(f.type)); m.union?.forEach(collect); });
  return [
    `// ${GENERATED_MARK}\n` +
    '/**\n' +
    ' * The service\'s requests and answers, typed. The service may add members to an answer and values to a vocabulary\n' +
    ' * (docs/api.md#vocabularies): answers keep an index signature and each vocabulary is open at the end\n' +
    ' * (`| (string & {})`), so code compiled against this version keeps working and editors still offer the known values.\n' +
    ' */\n' +
    (handWritten.size ? `import type { ${[...handWritten].sort().join(', ')} } from './types.js';\n` : '') +
    '\n/** Known values plus any later addition, without losing autocompletion. */\n' +
    'type Open<T extends string> = T | (string & {});\n',
    ...set.vocabularies.map(vocabularyText),
    ...models.map((m) => modelText(set, m)),
  ].join('\n');
}
