/**
 * The Java client's models: one file per record or enum (Java wants a public type in a file of its own), read by the
 * client's Gson (snake_case members, vocabularies through ApiEnum, timestamps as Instant).
 */
import { type Field, GENERATED_MARK, type Model, type ModelSet, modelName, modelsFor, sentence, type TypeRef, type Vocabulary } from './model-ir.js';

const PACKAGE = 'com.contactvalidator';
const KEYWORDS = new Set(['default', 'class', 'package', 'public', 'private', 'static', 'final', 'new', 'switch', 'case', 'import', 'interface', 'enum', 'record', 'int', 'long', 'boolean', 'char']);

/** Markdown code spans become {@code …}; what would end or confuse the comment is escaped. */
function javadoc(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  const html = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\*\//g, '*&#47;');
  return [`${indent}/** ${html.replace(/`([^`]+)`/g, '{@code $1}')} */`];
}

function camelCase(wire: string): string {
  const name = wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (KEYWORDS.has(name)) throw new Error(`clients/generate-models: ${wire} is a Java keyword`);
  return name;
}

const BOXED: Record<string, string> = { long: 'Long', double: 'Double', boolean: 'Boolean' };

export function javaTypeText(set: ModelSet, type: TypeRef, imports: Set<string>): string {
  return typeText(set, type, imports);
}

function typeText(set: ModelSet, type: TypeRef, imports: Set<string>): string {
  switch (type.kind) {
    case 'string': case 'date': case 'literal': case 'values': return 'String';
    case 'date-time': imports.add('java.time.Instant'); return 'Instant';
    case 'integer': return 'long';
    case 'number': return 'double';
    case 'boolean': return 'boolean';
    case 'unknown': case 'union': return 'Object';
    case 'vocabulary': return type.vocabulary.entry.java!;
    case 'model': {
      const name = modelName(set, type.id, 'java');
      if (name) return name;
      imports.add('java.util.Map');
      return 'Map<String, Object>';
    }
    case 'array': {
      imports.add('java.util.List');
      const items = typeText(set, type.items, imports);
      return `List<${BOXED[items] ?? items}>`;
    }
    case 'map': {
      imports.add('java.util.Map');
      const values = typeText(set, type.values, imports);
      return `Map<String, ${BOXED[values] ?? values}>`;
    }
    case 'object': imports.add('java.util.Map'); return 'Map<String, Object>';
    case 'hand-written': return type.names.java ?? typeText(set, type.fallback, imports);
  }
}

function componentText(set: ModelSet, field: Field, imports: Set<string>): string[] {
  const type = typeText(set, field.type, imports);
  const boxed = field.nullable || !field.required ? BOXED[type] ?? type : type;
  return [...javadoc(field.description, '    '), `    ${boxed} ${camelCase(field.wire)}`];
}

function file(imports: Set<string>, body: string[]): string {
  const importLines = [...imports].sort().map((i) => `import ${i};`);
  return [`// ${GENERATED_MARK}`, `package ${PACKAGE};`, '', ...(importLines.length ? [...importLines, ''] : []), ...body].join('\n') + '\n';
}

function recordFile(set: ModelSet, model: Model): string {
  if (model.union) throw new Error(`clients/generate-models: Java carries no union (${model.id})`);
  const imports = new Set<string>();
  const components = model.fields.map((f) => componentText(set, f, imports));
  const body = components.map((lines, i) => (i < components.length - 1 ? [...lines.slice(0, -1), `${lines.at(-1)},`] : lines)).flat();
  return file(imports, [...javadoc(model.description ?? `The schema {@code ${model.id}}.`, ''), `public record ${model.names.java}(`, ...body, ') {}']);
}

function enumFile(vocabulary: Vocabulary): string {
  const name = vocabulary.entry.java!;
  const constants = vocabulary.values.map((value) => {
    const constant = vocabulary.entry.javaConstants?.[value] ?? value.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    return `  ${constant}(${JSON.stringify(value)}),`;
  });
  const summary = `${vocabulary.description ? `${sentence(vocabulary.description)} ` : ''}A value this version does not know yet reads as {@link #UNRECOGNIZED}, never an error.`;
  return file(new Set(), [
    ...javadoc(summary, ''),
    `public enum ${name} implements ApiEnum {`,
    ...constants,
    '  /** A value added to the service after this client was released. */',
    '  UNRECOGNIZED(null);',
    '',
    '  private final String value;',
    '',
    `  ${name}(String value) {`,
    '    this.value = value;',
    '  }',
    '',
    '  @Override',
    '  public String value() {',
    '    return value;',
    '  }',
    '}',
  ]);
}

/** File name (in the package folder) → content. */
export function emitJava(set: ModelSet): Map<string, string> {
  const files = new Map<string, string>();
  for (const vocabulary of set.vocabularies) files.set(`${vocabulary.entry.java}.java`, enumFile(vocabulary));
  for (const model of modelsFor(set, 'java')) files.set(`${model.names.java}.java`, recordFile(set, model));
  return files;
}
