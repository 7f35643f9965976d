/**
 * What the one-click set-up (connectors/salesforce/setup.ts) asks of the local org: `POST /tooling/sobjects/CustomField`
 * (a field the objects lack is created, and like any new field it is not editable by anyone until field-level
 * security opens it), and creating PermissionSet, FieldPermissions (one or a collection) and PermissionSetAssignment
 * records. An assignment opens the fields its set grants edit on to the org's users (one FLS for all: the local org has
 * one profile), as does a grant to a set already assigned.
 */
import { fieldName, SCHEMA, type Row } from './fake-org-soql.js';

export interface SetupState {
  missingFields: Set<string>;
  readOnlyFields: Set<string>;
  insert(object: string, fields: Row): Row;
  rows(object: string): Row[];
  count(endpoint: string): void;
}

type Answer = (status: number, body: unknown) => void;
type Saved = { id: string | null; success: boolean; errors: { statusCode: string; message: string; fields: string[] }[] };

const SETUP = new Set(['PermissionSet', 'FieldPermissions', 'PermissionSetAssignment']);

/** Answers the set-up's requests; false for any other request. */
export function setupRoute(state: SetupState, method: string, path: string, body: string, answer: Answer): boolean {
  if (method === 'POST' && path === '/tooling/sobjects/CustomField') {
    state.count('tooling.customField');
    const { FullName: fullName } = JSON.parse(body || '{}') as { FullName?: string };
    const [object, field] = (fullName ?? '').split('.');
    if (!SCHEMA[object]?.fields[field ?? '']) return answer(400, [{ errorCode: 'INVALID_FIELD', message: `No such field ${fullName}` }]), true;
    if (!state.missingFields.has(fullName!)) {
      return answer(400, [{ errorCode: 'DUPLICATE_DEVELOPER_NAME', message: `There is already a field named ${field} on ${object}.` }]), true;
    }
    state.missingFields.delete(fullName!);
    state.readOnlyFields.add(fullName!);
    return answer(201, { id: `00N5g00000${String(state.rows('FieldPermissions').length).padStart(8, '0')}`, success: true, errors: [] }), true;
  }
  const single = /^\/sobjects\/(\w+)\/?$/.exec(path);
  if (method === 'POST' && single && SETUP.has(single[1])) {
    state.count(`create.${single[1]}`);
    const saved = save(state, single[1], JSON.parse(body || '{}'));
    return answer(saved.success ? 201 : 400, saved.success ? saved : saved.errors.map((e) => ({ errorCode: e.statusCode, message: e.message }))), true;
  }
  if (method === 'POST' && path === '/composite/sobjects') {
    state.count('collections.create');
    const { records = [] } = JSON.parse(body || '{}') as { records?: ({ attributes?: { type?: string } } & Row)[] };
    return answer(200, records.map(({ attributes, ...fields }) => (SETUP.has(attributes?.type ?? '')
      ? save(state, attributes!.type!, fields as Row)
      : { id: null, success: false, errors: [{ statusCode: 'INVALID_TYPE', message: 'not a set-up object', fields: [] }] }))), true;
  }
  return false;
}

function save(state: SetupState, object: string, input: Row): Saved {
  const fields: Row = {};
  for (const [name, value] of Object.entries(input)) fields[fieldName(object, name)] = typeof value === 'boolean' ? String(value) : value;
  const fail = (statusCode: string, message: string): Saved => ({ id: null, success: false, errors: [{ statusCode, message, fields: [] }] });
  if (object === 'FieldPermissions') {
    if (state.missingFields.has(String(fields.Field))) return fail('INVALID_FIELD', `Field ${fields.Field} does not exist`);
    if (state.rows(object).some((r) => r.ParentId === fields.ParentId && r.Field === fields.Field)) return fail('DUPLICATE_VALUE', 'duplicate value found: Field duplicates value on record');
  }
  if (object === 'PermissionSetAssignment' && state.rows(object).some((r) => r.AssigneeId === fields.AssigneeId && r.PermissionSetId === fields.PermissionSetId)) {
    return fail('DUPLICATE_VALUE', 'duplicate value found: Assignee duplicates value on record');
  }
  const row = state.insert(object, fields);
  openAssignedFields(state);
  return { id: row.Id as string, success: true, errors: [] };
}

/** The fields an assigned set grants edit on become editable. */
function openAssignedFields(state: SetupState) {
  const assigned = new Set(state.rows('PermissionSetAssignment').map((r) => r.PermissionSetId));
  for (const grant of state.rows('FieldPermissions')) {
    if (assigned.has(grant.ParentId) && grant.PermissionsEdit === 'true') state.readOnlyFields.delete(String(grant.Field));
  }
}
