/**
 * The Shopify discover (the plugin contract's `discover`, for the check page): each configured resource (customers,
 * orders) with the fields a run reads (the GraphQL fields, their role), the `updatedAt` it pages by, and what a verdict
 * writes (the `contact_validator` metafields, the `cv-*` tags), readable and writable as the app's access scopes allow
 * (`currentAppInstallation.accessScopes`; a write scope grants reading too). The fields are Shopify's own: always there.
 */
import type { Catalog, CatalogField } from '../../src/sync/plugin.js';
import type { ShopifyClient } from './client.js';
import { ADDRESS_FIELDS, METAFIELD_NAMESPACE, RESOURCE, TAGS, type ShopifyResource } from './mapping.js';

const METAFIELDS: [string, string][] = [
  ['address_status', 'single_line_text_field'], ['email_status', 'single_line_text_field'], ['phone_status', 'single_line_text_field'],
  ['validated_at', 'date_time'], ['result', 'json'],
];

export async function discoverStore(
  client: ShopifyClient, options: { resources: readonly ShopifyResource[]; metafields: boolean; tags: boolean },
): Promise<Catalog> {
  await client.authenticate();
  const missing = new Set(await client.missingScopes(options.resources.flatMap((r) => [`read_${r}`, `write_${r}`])));
  const objects = [];
  for (const resource of options.resources) {
    const readable = !missing.has(`read_${resource}`);
    const writable = !missing.has(`write_${resource}`);
    const read = (name: string, type: string, role: CatalogField['role']): CatalogField => ({ name, type, role, readable, writable: false, present: true });
    const written = (name: string, type: string): CatalogField => ({ name, type, role: 'verdict', readable, writable, present: true });
    const address = RESOURCE[resource].address;
    objects.push({
      name: resource, label: RESOURCE[resource].type, readable, writable,
      fields: [
        read('email', 'String', 'email'),
        read('phone', 'String', 'phone'),
        ...ADDRESS_FIELDS.map((f) => read(`${address}.${f}`, 'String', f === 'phone' ? 'phone' : 'address')),
        read('updatedAt', 'DateTime', 'watermark'),
        ...(options.metafields ? METAFIELDS.map(([key, type]) => written(`metafields.${METAFIELD_NAMESPACE}.${key}`, type)) : []),
        ...(options.tags ? Object.values(TAGS).filter((t) => resource === 'orders' || t !== TAGS.review).map((t) => written(`tags: ${t}`, 'tag')) : []),
      ],
    });
  }
  return { objects };
}
