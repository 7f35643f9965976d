/**
 * The Salesforce check before a first run: the grant, then each object's describe (REST API Developer Guide, "Get Field
 * and Other Metadata for an Object") as the run-as user sees it: a field it cannot see is absent from `fields`, one it
 * cannot edit says `updateable: false` (field-level security). What a run reads must be there; the CV_*__c fields it
 * writes (metadata/ creates them, its permission set opens them) must be there and editable, and so must the address
 * fields when `overwrite_address` asks to write them.
 */
import { ConnectorError, type CheckProblem } from '../../src/sync/plugin.js';
import { SalesforceError, type SalesforceClient } from './client.js';
import { OPTIONAL_FIELDS, PERMISSION_SET, REQUIRED_FIELDS, SHADOW_FIELDS } from './fields.js';
import { FIELDS, readFieldsOf, type SalesforceObject } from './mapping.js';

/** An object's describe as the check and the discover read it. */
export interface DescribeField { name: string; label?: string; type?: string; updateable: boolean }
export interface DescribeSObjectResult { name: string; label?: string; updateable: boolean; fields: DescribeField[] }

/** The optional CV_ fields (the next actions) the run-as user may edit on an object, as its describe shows them. */
export async function writableOptionalFields(client: SalesforceClient, object: SalesforceObject): Promise<string[]> {
  const described = await client.get<DescribeSObjectResult>(`/sobjects/${object}/describe`);
  const editable = new Set(described.fields.filter((f) => f.updateable).map((f) => f.name));
  return OPTIONAL_FIELDS.filter((name) => editable.has(name));
}

/** A describe refused because the run-as user cannot reach the object (not the credentials, not the org's health). */
export const objectNotAccessible = (err: unknown): err is SalesforceError =>
  err instanceof SalesforceError && /^(NOT_FOUND|INSUFFICIENT_ACCESS|ERROR_HTTP_40[34])/.test(err.errorCode);

const DEPLOY_FIX =
  'Set up the fields with one click on the dashboard\'s Connectors page (it creates them and the permission set through ' +
  'the Tooling API), or deploy connectors/salesforce/metadata (sf project deploy start --manifest package.xml) and ' +
  `assign the permission set ${PERMISSION_SET} to the run-as user.`;
const ASSIGN_FIX = `Assign the permission set ${PERMISSION_SET} (connectors/salesforce/metadata) to the run-as user.`;

export interface OrgCheckOptions {
  objects: readonly SalesforceObject[];
  overwriteAddress: boolean;
  /** write_back.shadow_fields: the CV_ shadow fields must be there and editable too. */
  shadowFields?: boolean;
}

/** Refused credentials as a problem; anything else (an org that does not answer) is the core's to report. */
export function credentialsProblem(err: unknown): CheckProblem {
  if (!(err instanceof ConnectorError) || err.reason !== 'auth_failed') throw err;
  return {
    code: 'credentials_refused',
    message: `Salesforce refused the connector's credentials (${err.platformMessage ?? err.message}).`,
    fix: 'Check client_id and client_secret (or username and private_key) against the connected app, that its flow is ' +
      'enabled with a run-as user, and that login_url is the org\'s My Domain URL.',
  };
}

export async function checkOrg(client: SalesforceClient, options: OrgCheckOptions): Promise<CheckProblem[]> {
  try {
    await client.authenticate();
  } catch (err) {
    return [credentialsProblem(err)];
  }
  const problems: CheckProblem[] = [];
  for (const object of options.objects) {
    let described: DescribeSObjectResult;
    try {
      described = await client.get<DescribeSObjectResult>(`/sobjects/${object}/describe`);
    } catch (err) {
      if (err instanceof SalesforceError && err.reason === 'auth_failed') return [credentialsProblem(err)];
      if (objectNotAccessible(err)) {
        problems.push({
          code: 'object_not_accessible', message: `The run-as user cannot reach ${object} records (${err.platformMessage}).`, fix: ASSIGN_FIX,
        });
        continue;
      }
      throw err;
    }
    problems.push(...objectProblems(object, described, options));
  }
  return problems;
}

/** What one object's describe lacks, one problem per kind, naming every field of that kind. */
function objectProblems(object: SalesforceObject, described: DescribeSObjectResult, options: OrgCheckOptions): CheckProblem[] {
  const fields = new Map(described.fields.map((f) => [f.name, f]));
  const absent = (names: readonly string[]) => names.filter((name) => !fields.has(name));
  const readOnly = (names: readonly string[]) => names.filter((name) => fields.has(name) && !fields.get(name)!.updateable);
  const custom: string[] = [...REQUIRED_FIELDS, ...(options.shadowFields ? SHADOW_FIELDS : [])];
  const f = FIELDS[object];
  const address = options.overwriteAddress && !options.shadowFields ? [f.street, f.city, f.state, f.postalCode] : [];
  const problems: CheckProblem[] = [];

  if (!described.updateable) {
    problems.push({ code: 'object_not_accessible', message: `The run-as user cannot edit ${object} records.`, fix: ASSIGN_FIX });
  }
  const unread = absent(readFieldsOf(object));
  if (unread.length) {
    problems.push({
      code: 'field_missing', message: `The run-as user cannot read ${list(object, unread)}, which runs read.`,
      fix: 'Give the run-as user read access to these fields (field-level security in its profile or a permission set).',
    });
  }
  const missing = absent(custom);
  if (missing.length) {
    problems.push({ code: 'field_missing', message: `${object} has no ${list(object, missing)} (or the run-as user cannot see it).`, fix: DEPLOY_FIX });
  }
  const locked = readOnly(custom);
  if (locked.length) {
    problems.push({ code: 'field_not_writable', message: `The run-as user cannot edit ${list(object, locked)}.`, fix: ASSIGN_FIX });
  }
  // The next-action fields came after the first metadata: an org without them runs, and gets them written once it has them.
  const missingOptional = absent(OPTIONAL_FIELDS);
  if (missingOptional.length) {
    problems.push({ code: 'field_missing', severity: 'warning', message: `${object} has no ${list(object, missingOptional)} (or the run-as user cannot see it)${OPTIONAL_NOTE}.`, fix: DEPLOY_FIX });
  }
  const lockedOptional = readOnly(OPTIONAL_FIELDS);
  if (lockedOptional.length) {
    problems.push({ code: 'field_not_writable', severity: 'warning', message: `The run-as user cannot edit ${list(object, lockedOptional)}${OPTIONAL_NOTE}.`, fix: ASSIGN_FIX });
  }
  const lockedAddress = [...absent(address), ...readOnly(address)];
  if (lockedAddress.length) {
    problems.push({
      code: 'field_not_writable',
      message: `write_back.overwrite_address is on, and the run-as user cannot edit ${list(object, lockedAddress)}.`,
      fix: 'Give the run-as user edit access to these address fields, or turn write_back.overwrite_address off.',
    });
  }
  return problems;
}

const OPTIONAL_NOTE = ': runs write every verdict without it, and the next actions once it is there';
const list = (object: string, names: readonly string[]) => names.map((name) => `${object}.${name}`).join(', ');
