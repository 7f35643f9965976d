/**
 * metadata/ as rendered from the fields table (fields.ts): every file's path and text. `npm run -s salesforce:metadata`
 * writes them; test/salesforce/metadata.test.ts fails when the folder and the table disagree.
 */
import { FIELD_DEFS, PERMISSION_SET, fieldXml, packageXml, permissionSetXml, type CustomField } from './fields.js';
import { OBJECTS } from './mapping.js';

export const METADATA_API_VERSION = '62.0';

export function metadataFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const object of OBJECTS) {
    for (const name of Object.keys(FIELD_DEFS) as CustomField[]) {
      files.set(`force-app/main/default/objects/${object}/fields/${name}.field-meta.xml`, fieldXml(name));
    }
  }
  files.set(`force-app/main/default/permissionsets/${PERMISSION_SET}.permissionset-meta.xml`, permissionSetXml(OBJECTS));
  files.set('package.xml', packageXml(OBJECTS, METADATA_API_VERSION));
  return files;
}
