/**
 * The one-click set-up of an org (the dashboard's "Set up the fields" after a check), what metadata/ deploys, done through
 * the REST APIs as the connected user (an admin, who connected through the web-server flow): each CV_ field the
 * objects lack is created with the Tooling API (`POST /tooling/sobjects/CustomField`, the same definition as
 * metadata/, picklists included); the permission set is created if missing, given read and edit on every CV_ field
 * (`FieldPermissions`; those it has already are refused as duplicates and left), and assigned to the connected user.
 * Nothing that exists is changed.
 */
import type { SalesforceClient } from './client.js';
import { SalesforceError } from './client.js';
import { FIELD_DEFS, PERMISSION_SET, SHADOW_FIELDS, VERDICT_FIELDS, fieldMetadata, type CustomField } from './fields.js';
import type { SalesforceObject } from './mapping.js';

interface DescribeResult { fields: { name: string }[] }
interface SaveResult { id: string | null; success: boolean; errors: { statusCode: string; message: string }[] }

export interface SetUpOptions {
  objects: readonly SalesforceObject[];
  shadowFields: boolean;
}

const quoted = (value: string) => `'${value.replace(/['\\]/g, '\\$&')}'`;

async function idOf(client: SalesforceClient, soql: string): Promise<string | null> {
  const answer = await client.get<{ records: { Id: string }[] }>(`/query?q=${encodeURIComponent(soql)}`);
  return answer.records[0]?.Id ?? null;
}

export async function setUpOrg(client: SalesforceClient, options: SetUpOptions): Promise<string[]> {
  await client.authenticate();
  const done: string[] = [];
  const wanted: CustomField[] = [...VERDICT_FIELDS, ...(options.shadowFields ? SHADOW_FIELDS : [])];
  for (const object of options.objects) {
    const described = await client.get<DescribeResult>(`/sobjects/${object}/describe`);
    const present = new Set(described.fields.map((f) => f.name));
    for (const name of wanted.filter((f) => !present.has(f))) {
      await client.post('/tooling/sobjects/CustomField', { FullName: `${object}.${name}`, Metadata: fieldMetadata(name) });
      done.push(`created the field ${object}.${name} (${FIELD_DEFS[name].label})`);
    }
  }

  let permissionSetId = await idOf(client, `SELECT Id FROM PermissionSet WHERE Name = ${quoted(PERMISSION_SET)}`);
  if (!permissionSetId) {
    const created = await client.post<SaveResult>('/sobjects/PermissionSet', { Name: PERMISSION_SET, Label: 'Contact Validator Integration' });
    permissionSetId = created.id!;
    done.push(`created the permission set ${PERMISSION_SET}`);
  }
  const grants = options.objects.flatMap((object) => (Object.keys(FIELD_DEFS) as CustomField[]).map((name) => ({
    attributes: { type: 'FieldPermissions' }, ParentId: permissionSetId, SobjectType: object, Field: `${object}.${name}`,
    PermissionsRead: true, PermissionsEdit: true,
  })));
  let granted = 0;
  for (let i = 0; i < grants.length; i += 200) {
    const results = await client.post<SaveResult[]>('/composite/sobjects', { allOrNone: false, records: grants.slice(i, i + 200) });
    for (const r of results) {
      if (r.success) granted++;
      // A field the set opens already, or one the objects lack (the shadow fields when not asked for): left as it is.
      else if (!r.errors.every((e) => /DUPLICATE_VALUE|INVALID_FIELD|FIELD_INTEGRITY_EXCEPTION/.test(e.statusCode))) {
        throw new SalesforceError('api_error', 'Salesforce refused a field permission', r.errors[0]?.statusCode ?? 'UNKNOWN', r.errors.map((e) => `${e.statusCode}: ${e.message}`).join('; '));
      }
    }
  }
  if (granted) done.push(`gave ${PERMISSION_SET} read and edit on ${granted} CV_ fields`);

  const user = client.userId;
  if (user) {
    const assigned = await idOf(client, `SELECT Id FROM PermissionSetAssignment WHERE AssigneeId = ${quoted(user)} AND PermissionSetId = ${quoted(permissionSetId)}`);
    if (!assigned) {
      await client.post('/sobjects/PermissionSetAssignment', { AssigneeId: user, PermissionSetId: permissionSetId });
      done.push(`assigned ${PERMISSION_SET} to the connected user`);
    }
  }
  return done;
}
