/**
 * The HubSpot check before a first run, and the one-click set-up. The check: the token works (a refresh token still
 * grants one), belongs to the portal of the settings, holds the scopes a run needs (`/oauth/v1/access-tokens/{token}`,
 * or a private app's token info), and the contact properties the write-back fills are there with our options
 * (GET /crm/v3/properties/contacts). The set-up creates the property group and the properties missing; it changes no
 * property that is there.
 */
import { ConnectorError, type Catalog, type CatalogField, type CheckProblem } from '../../src/sync/plugin.js';
import type { HubspotClient } from './client.js';
import { CHECKED_PROPERTIES } from './mapping.js';
import {
  CV_PROPERTIES, OPTIONAL_PROPERTIES, PROPERTY_DEFS, PROPERTY_GROUP, propertyCreateBody, propertyMismatch, REQUIRED_PROPERTIES, type CvProperty,
  type HubspotProperty,
} from './properties.js';

/** Reading and writing contacts, and creating the properties the verdicts go in. */
export const REQUIRED_SCOPES = ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.schemas.contacts.write'] as const;

const SET_UP_FIX =
  'Create them with one click ("Set up the properties for me" on the dashboard\'s check page, or POST the connector\'s ' +
  'set-up), or by hand in HubSpot (Settings → Properties → Contact properties) as connectors/hubspot/README.md lists them.';

function credentialsProblem(err: unknown): CheckProblem {
  if (!(err instanceof ConnectorError) || err.reason !== 'auth_failed') throw err;
  return {
    code: 'credentials_refused',
    message: `HubSpot refused the connector's credentials (${err.platformMessage ?? err.message}).`,
    fix: 'Connect the HubSpot account again (OAuth), or paste a current private app access token.',
  };
}

export async function checkAccount(client: HubspotClient, portalId: number): Promise<CheckProblem[]> {
  let info;
  try {
    await client.authenticate();
    info = await client.tokenInfo();
  } catch (err) {
    return [credentialsProblem(err)];
  }
  if (info.hubId !== portalId) {
    return [{
      code: 'credentials_refused',
      message: `The token belongs to HubSpot account ${info.hubId}, not to the account ${portalId} of the settings.`,
      fix: `Set settings.portal_id to ${info.hubId}, or use a token of account ${portalId}.`,
    }];
  }
  const problems: CheckProblem[] = [];
  const granted = new Set(info.scopes);
  const missingScopes = REQUIRED_SCOPES.filter((scope) => !granted.has(scope));
  if (missingScopes.length) {
    problems.push({
      code: 'scope_missing', message: `The token lacks the scopes ${missingScopes.join(', ')}.`,
      fix: 'Add them to the private app (Settings → Integrations → Private apps → Scopes) or to the OAuth app, then connect again.',
    });
  }
  if (!granted.has('crm.objects.contacts.read') && !granted.has('crm.objects.contacts.write')) return problems;
  let held;
  try {
    held = new Map((await client.contactProperties()).map((p) => [p.name, p]));
  } catch (err) {
    if (err instanceof ConnectorError && err.reason === 'auth_failed') return [...problems, credentialsProblem(err)];
    throw err;
  }
  return [...problems, ...propertyProblems(held, REQUIRED_PROPERTIES, ''), ...propertyProblems(held, OPTIONAL_PROPERTIES, OPTIONAL_NOTE)];
}

/** The optional properties' problems are warnings: runs write the rest, and these once they are there as we make them. */
const OPTIONAL_NOTE = ': runs write every verdict without them, and the next actions once they are there';

/** What HubSpot lacks of these properties, or holds otherwise than we make them: one problem of each kind. */
function propertyProblems(held: Map<string, HubspotProperty>, names: readonly CvProperty[], note: string): CheckProblem[] {
  const warning = note ? { severity: 'warning' as const } : {};
  const problems: CheckProblem[] = [];
  const missing = names.filter((name) => !held.has(name));
  if (missing.length) {
    problems.push({ code: 'field_missing', message: `HubSpot contacts have no ${missing.join(', ')} properties${note}.`, fix: SET_UP_FIX, ...warning });
  }
  const unfit = names.flatMap((name) => (held.has(name) ? [propertyMismatch(name, held.get(name)!)] : [])).filter((m): m is string => m !== null);
  if (unfit.length) {
    problems.push({
      code: 'field_not_writable', message: `Contact properties differ from what the connector writes: ${unfit.join('; ')}${note}.`,
      fix: 'Delete these properties in HubSpot and let the set-up create them again, or give them the options README.md lists.', ...warning,
    });
  }
  return problems;
}

/** Creates the group and the properties missing; says what it did. */
export async function setUpAccount(client: HubspotClient): Promise<string[]> {
  await client.authenticate();
  const done: string[] = [];
  const groups = new Set((await client.propertyGroups()).map((g) => g.name));
  if (!groups.has(PROPERTY_GROUP.name)) {
    await client.createPropertyGroup({ ...PROPERTY_GROUP });
    done.push(`Created the contact property group "${PROPERTY_GROUP.label}" (${PROPERTY_GROUP.name}).`);
  }
  const held = new Set((await client.contactProperties()).map((p) => p.name));
  const created = [];
  for (const name of CV_PROPERTIES) {
    if (held.has(name)) continue;
    await client.createProperty(propertyCreateBody(name));
    created.push(name);
  }
  if (created.length) done.push(`Created the contact properties ${created.join(', ')}.`);
  if (!done.length) done.push('Nothing to do: the property group and every property are there.');
  return done;
}

const ROLE: Record<string, CatalogField['role']> = {
  email: 'email', phone: 'phone', mobilephone: 'phone', address: 'address', city: 'address', state: 'address', zip: 'address', country: 'address',
};

/** Contacts, with the properties a run reads (their roles), the watermark's, and the cv_ ones it writes (present or not). */
export async function discoverAccount(client: HubspotClient): Promise<Catalog> {
  await client.authenticate();
  const [info, held] = await Promise.all([client.tokenInfo(), client.contactProperties()]);
  const byName = new Map(held.map((p) => [p.name, p]));
  const readable = info.scopes.includes('crm.objects.contacts.read') || info.scopes.includes('crm.objects.contacts.write');
  const writable = info.scopes.includes('crm.objects.contacts.write');
  const fields: CatalogField[] = [
    ...CHECKED_PROPERTIES.map((name) => ({
      name, type: byName.get(name)?.type ?? 'string', role: ROLE[name], readable, writable: false, present: byName.has(name),
    })),
    { name: 'lastmodifieddate', type: 'datetime', role: 'watermark' as const, readable, writable: false, present: byName.has('lastmodifieddate') },
    ...CV_PROPERTIES.map((name) => ({
      name, label: PROPERTY_DEFS[name].label, type: PROPERTY_DEFS[name].kind.type, role: 'verdict' as const,
      readable, writable: writable && byName.has(name) && propertyMismatch(name, byName.get(name)!) === null, present: byName.has(name),
    })),
  ];
  return { objects: [{ name: 'contacts', label: 'Contacts', readable, writable, fields }] };
}
