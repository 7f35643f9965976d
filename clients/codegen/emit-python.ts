/** The Python client's models: TypedDicts over the plain dicts the client returns, and `Literal` vocabularies. */
import { type Field, GENERATED_MARK, type Model, type ModelSet, modelName, modelsFor, ownFields, type TypeRef, type Vocabulary } from './model-ir.js';

export const KEYWORDS = new Set(['from', 'class', 'def', 'import', 'global', 'lambda', 'pass', 'return', 'yield', 'in', 'is', 'not', 'or', 'and']);

function docstring(text: string | undefined, indent: string): string {
  return text ? `${indent}"""${text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')}"""\n` : '';
}

const quote = (value: string) => JSON.stringify(value);

export function typeText(set: ModelSet, type: TypeRef): string {
  switch (type.kind) {
    case 'string': case 'date-time': case 'date': case 'values': return 'str';
    case 'integer': return 'int';
    case 'number': return 'float';
    case 'boolean': return 'bool';
    case 'unknown': return 'Any';
    case 'literal': return `Literal[${quote(type.value)}]`;
    case 'vocabulary': return type.vocabulary.entry.py!;
    case 'model': return modelName(set, type.id, 'py') ?? 'Dict[str, Any]';
    case 'array': return `List[${typeText(set, type.items)}]`;
    case 'map': return `Dict[str, ${typeText(set, type.values)}]`;
    case 'union': return `Union[${type.members.map((m) => typeText(set, m)).join(', ')}]`;
    case 'object': return 'Dict[str, Any]';
    case 'hand-written': return type.names.py ?? typeText(set, type.fallback);
  }
}

function fieldText(set: ModelSet, field: Field): string {
  if (KEYWORDS.has(field.wire)) throw new Error(`clients/generate-models: ${field.wire} is a Python keyword`);
  let type = typeText(set, field.type);
  if (field.nullable) type = `Optional[${type}]`;
  if (!field.required) type = `NotRequired[${type}]`;
  return `    ${field.wire}: ${type}\n${docstring(field.description, '    ')}`;
}

function vocabularyText(vocabulary: Vocabulary): string {
  const { py: name, pyValues } = vocabulary.entry;
  const values = vocabulary.values.map(quote).join(', ');
  return `${name} = Literal[${values}]\n${docstring(vocabulary.description, '')}` +
    (pyValues ? `${pyValues}: tuple[${name}, ...] = (${values}${vocabulary.values.length === 1 ? ',' : ''})\n` : '');
}

function modelText(set: ModelSet, model: Model): string {
  const name = model.names.py!;
  if (model.union) return `${name} = Union[${model.union.map((m) => typeText(set, m)).join(', ')}]\n${docstring(model.description, '')}`;
  const body = ownFields(set, model).map((f) => fieldText(set, f)).join('');
  return `class ${name}(${model.extends ? modelName(set, model.extends, 'py') : 'TypedDict'}):\n${model.description ? `${docstring(model.description, '    ')}\n` : ''}${body || '    pass\n'}`;
}

export function emitPython(set: ModelSet): string {
  const models = modelsFor(set, 'py');
  const exported = [
    ...set.vocabularies.flatMap((v) => [v.entry.py!, ...(v.entry.pyValues ? [v.entry.pyValues] : [])]),
    ...models.map((m) => m.names.py!),
  ];
  return [
    `# ${GENERATED_MARK}\n` +
    '"""The service\'s answers, typed: ``TypedDict`` classes over the plain dicts the client returns, and the closed\n' +
    'vocabularies as ``Literal`` types plus tuples of their values. The service may add members and (documented) values;\n' +
    'a client reading an unknown one gets it unchanged."""\n\n' +
    'from __future__ import annotations\n\n' +
    'import sys\n' +
    'from typing import TYPE_CHECKING, Any, Dict, List, Literal, Optional, TypedDict, Union\n\n' +
    'if sys.version_info >= (3, 11):\n' +
    '    from typing import NotRequired\n' +
    'elif TYPE_CHECKING:  # pragma: no cover - only type checkers read it on 3.9/3.10 (annotations are strings here)\n' +
    '    from typing_extensions import NotRequired\n\n' +
    `__all__ = [\n${exported.map((n) => `    ${quote(n)},`).join('\n')}\n]\n`,
    ...set.vocabularies.map(vocabularyText),
    ...models.map((m) => modelText(set, m)),
  ].join('\n\n');
}
