/**
 * The Salesforce discover (the plugin contract's `discover`, for the check page): each configured object as the run-as
 * user's describe shows it, with the fields a run reads (their role), the watermark it pages by, and the CV_*__c fields
 * it writes, present or not, editable or not (field-level security). One describe an object, as the check makes.
 */
import type { Catalog, CatalogField, CatalogObject } from '../../src/sync/plugin.js';
import { objectNotAccessible, type DescribeSObjectResult } from './check.js';
import type { SalesforceClient } from './client.js';
import { FIELD_DEFS, SHADOW_FIELDS, VERDICT_FIELDS } from './fields.js';
import { FIELDS, type SalesforceObject } from './mapping.js';

const ROLES: Record<string, CatalogField['role']> = {
  street: 'address', city: 'address', state: 'address', postalCode: 'address', country: 'address', email: 'email', phone: 'phone', mobile: 'phone',
};

export async function discoverOrg(client: SalesforceClient, options: { objects: readonly SalesforceObject[]; shadowFields?: boolean }): Promise<Catalog> {
  await client.authenticate();
  const objects: CatalogObject[] = [];
  for (const object of options.objects) {
    let described: DescribeSObjectResult | null = null;
    try {
      described = await client.get<DescribeSObjectResult>(`/sobjects/${object}/describe`);
    } catch (err) {
      // (An object the run-as user cannot reach is listed as not readable; refused credentials and the rest throw.)
      if (!objectNotAccessible(err)) throw err;
    }
    const held = new Map((described?.fields ?? []).map((f) => [f.name, f]));
    const field = (name: string, role: CatalogField['role'], label?: string): CatalogField => {
      const f = held.get(name);
      return { name, ...(f?.label ?? label ? { label: f?.label ?? label } : {}), type: f?.type ?? 'string', role, readable: Boolean(f), writable: Boolean(f?.updateable), present: Boolean(f) };
    };
    const written = [...VERDICT_FIELDS, ...(options.shadowFields ? SHADOW_FIELDS : [])];
    objects.push({
      name: object, ...(described?.label ? { label: described.label } : {}), readable: described !== null, writable: Boolean(described?.updateable),
      fields: [
        ...Object.entries(FIELDS[object]).map(([part, name]) => field(name, ROLES[part])),
        field('SystemModstamp', 'watermark'),
        ...written.map((name) => field(name, 'verdict', FIELD_DEFS[name].label)),
      ],
    });
  }
  return { objects };
}
