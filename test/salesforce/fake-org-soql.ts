/**
 * The fake org's schema and the small SOQL subset it answers: `SELECT f, … FROM Obj [WHERE cond] [ORDER BY f [ASC|DESC],
 * …] [LIMIT n]`, where a condition compares a field with a literal (`=`, `!=`, `<`, `<=`, `>`, `>=`) and conditions combine
 * with AND, OR and parentheses. As in Salesforce, datetime literals are unquoted (`2026-11-24T10:00:00Z`) and a quoted
 * value for a datetime field is refused (SOQL and SOSL Reference, "Date Formats and Date Literals").
 */

import { FIELD_DEFS, type FieldKind } from '../../connectors/salesforce/fields.js';

export type FieldType = 'id' | 'datetime' | 'string' | 'double';
export interface FieldDef { type: FieldType; length?: number; updateable: boolean; picklist?: readonly string[]; label?: string }
export type ObjectSchema = Record<string, FieldDef>;

const text = (length: number): FieldDef => ({ type: 'string', length, updateable: true });
const system = (type: FieldType): FieldDef => ({ type, updateable: false });
/** An address's geolocation (Object Reference, "Compound Fields: Geolocation"): two doubles and the accuracy picklist. */
const GEOCODE_ACCURACY = ['Address', 'NearAddress', 'Block', 'Street', 'ExtendedZip', 'Zip', 'Neighborhood', 'City', 'County', 'State', 'Unknown'];
const geolocation = (prefix: string): ObjectSchema => ({
  [`${prefix}Latitude`]: { type: 'double', updateable: true }, [`${prefix}Longitude`]: { type: 'double', updateable: true },
  [`${prefix}GeocodeAccuracy`]: { type: 'string', length: 40, updateable: true, picklist: GEOCODE_ACCURACY },
});

/** The custom fields of docs/connectors.md (restricted picklists, text, a datetime), as metadata/ creates them on both objects. */
const CV_FIELDS: ObjectSchema = Object.fromEntries(Object.entries(FIELD_DEFS).map(([name, def]) => {
  const kind: FieldKind = def.kind;
  const field: FieldDef = kind.type === 'Text' ? text(kind.length)
    : kind.type === 'Picklist' ? { type: 'string', length: 255, updateable: true, picklist: kind.values, label: def.label }
    : { type: 'datetime', updateable: true };
  return [name, field];
}));
const COMMON: ObjectSchema = {
  Id: system('id'), SystemModstamp: system('datetime'), LastModifiedDate: system('datetime'), CreatedDate: system('datetime'),
  FirstName: text(40), LastName: text(80), Email: text(80), Phone: text(40), MobilePhone: text(40),
};

/** The set-up objects (Object Reference: PermissionSet, FieldPermissions, PermissionSetAssignment), as far as setup.ts uses them. */
const SETUP_OBJECTS: Record<string, { prefix: string; fields: ObjectSchema }> = {
  PermissionSet: { prefix: '0PS', fields: { Id: system('id'), Name: text(80), Label: text(80) } },
  FieldPermissions: {
    prefix: '01k', fields: { Id: system('id'), ParentId: text(18), SobjectType: text(40), Field: text(120), PermissionsRead: text(5), PermissionsEdit: text(5) },
  },
  PermissionSetAssignment: { prefix: '0Pa', fields: { Id: system('id'), AssigneeId: text(18), PermissionSetId: text(18) } },
};

export const SCHEMA: Record<string, { prefix: string; fields: ObjectSchema }> = {
  ...SETUP_OBJECTS,
  Contact: {
    prefix: '003',
    fields: { ...COMMON, MailingStreet: text(255), MailingCity: text(40), MailingState: text(80), MailingPostalCode: text(20), MailingCountry: text(80), ...geolocation('Mailing'), ...CV_FIELDS },
  },
  Lead: {
    prefix: '00Q',
    fields: { ...COMMON, Company: text(255), Street: text(255), City: text(40), State: text(80), PostalCode: text(20), Country: text(80), ...geolocation(''), ...CV_FIELDS },
  },
};

/** A SOQL error as Salesforce names it (`INVALID_FIELD`, `INVALID_TYPE`, `MALFORMED_QUERY`). */
export class SoqlError extends Error {
  constructor(readonly errorCode: string, message: string) { super(message); }
}

export type Value = string | number | null;
export type Row = Record<string, Value>;
type Condition =
  | { op: 'AND' | 'OR'; left: Condition; right: Condition }
  | { field: string; cmp: string; value: Value };

export interface Soql {
  object: string;
  fields: string[];
  where: Condition | null;
  orderBy: { field: string; desc: boolean }[];
  limit: number | null;
}

const QUERY = /^SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(.+?))?(?:\s+LIMIT\s+(\d+))?\s*$/is;

export function parseSoql(soql: string): Soql {
  const m = QUERY.exec(soql.trim());
  if (!m) throw new SoqlError('MALFORMED_QUERY', `unexpected token in: ${soql}`);
  const object = Object.keys(SCHEMA).find((o) => o.toLowerCase() === m[2].toLowerCase());
  if (!object) throw new SoqlError('INVALID_TYPE', `sObject type '${m[2]}' is not supported.`);
  const field = (name: string) => fieldName(object, name);
  const fields = m[1].split(',').map((f) => field(f.trim()));
  const orderBy = m[4]
    ? m[4].split(',').map((part) => {
      const [name, dir = 'ASC', ...rest] = part.trim().split(/\s+/);
      if (rest.length || !/^(ASC|DESC)$/i.test(dir)) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${part.trim()}'`);
      return { field: field(name), desc: /^DESC$/i.test(dir) };
    })
    : [];
  const where = m[3] ? new WhereParser(m[3], object).parse() : null;
  return { object, fields, where, orderBy, limit: m[5] ? Number(m[5]) : null };
}

export function fieldName(object: string, name: string): string {
  const found = Object.keys(SCHEMA[object].fields).find((f) => f.toLowerCase() === name.toLowerCase());
  if (!found) throw new SoqlError('INVALID_FIELD', `No such column '${name}' on entity '${object}'.`);
  return found;
}

const TOKEN = /\s*(\(|\)|>=|<=|!=|=|<|>|'(?:[^'\\]|\\.)*'|[^\s()=<>!']+)/y;

class WhereParser {
  private tokens: string[] = [];
  private at = 0;
  constructor(source: string, private object: string) {
    TOKEN.lastIndex = 0;
    let m: RegExpExecArray | null;
    while (TOKEN.lastIndex < source.length && (m = TOKEN.exec(source))) this.tokens.push(m[1]);
    if (TOKEN.lastIndex < source.trimEnd().length) throw new SoqlError('MALFORMED_QUERY', `unexpected token in WHERE ${source}`);
  }

  parse(): Condition {
    const c = this.or();
    if (this.at < this.tokens.length) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${this.tokens[this.at]}'`);
    return c;
  }

  private or(): Condition {
    let left = this.and();
    while (/^OR$/i.test(this.tokens[this.at] ?? '')) { this.at++; left = { op: 'OR', left, right: this.and() }; }
    return left;
  }

  private and(): Condition {
    let left = this.term();
    while (/^AND$/i.test(this.tokens[this.at] ?? '')) { this.at++; left = { op: 'AND', left, right: this.term() }; }
    return left;
  }

  private term(): Condition {
    if (this.tokens[this.at] === '(') {
      this.at++;
      const c = this.or();
      if (this.tokens[this.at++] !== ')') throw new SoqlError('MALFORMED_QUERY', 'expecting a right parentheses');
      return c;
    }
    const [name, cmp, literal] = this.tokens.slice(this.at, this.at + 3);
    this.at += 3;
    if (!name || !cmp || literal === undefined || !/^(=|!=|<|<=|>|>=)$/.test(cmp)) {
      throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${name ?? ''} ${cmp ?? ''} ${literal ?? ''}'`);
    }
    const field = fieldName(this.object, name);
    return { field, cmp, value: literalValue(field, SCHEMA[this.object].fields[field].type, literal) };
  }
}

function literalValue(field: string, type: FieldType, literal: string): Value {
  const quoted = literal.startsWith("'");
  if (type === 'datetime') {
    if (!quoted && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/.test(literal)) {
      throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${literal}'`);
    }
    if (quoted) {
      throw new SoqlError('INVALID_FIELD',
        `value of filter criterion for field '${field}' must be of type dateTime and should not be enclosed in quotes`);
    }
    return Date.parse(literal);
  }
  if (/^null$/i.test(literal)) return null;
  if (!quoted) throw new SoqlError('MALFORMED_QUERY', `unexpected token: '${literal}'`);
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}

export function matches(row: Row, c: Condition | null): boolean {
  if (!c) return true;
  if ('op' in c) return c.op === 'AND' ? matches(row, c.left) && matches(row, c.right) : matches(row, c.left) || matches(row, c.right);
  const v = row[c.field];
  if (c.value === null || v === null || v === undefined) {
    return c.cmp === '=' ? (v ?? null) === c.value : c.cmp === '!=' ? (v ?? null) !== c.value : false;
  }
  const order = v < c.value ? -1 : v > c.value ? 1 : 0;
  return { '=': order === 0, '!=': order !== 0, '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0 }[c.cmp] ?? false;
}

export function compareBy(orderBy: Soql['orderBy']) {
  return (a: Row, b: Row): number => {
    for (const { field, desc } of orderBy) {
      const x = a[field], y = b[field];
      if (x === y) continue;
      // Salesforce sorts nulls first in ascending order.
      const order = x === null ? -1 : y === null ? 1 : x! < y! ? -1 : 1;
      return desc ? -order : order;
    }
    return 0;
  };
}
