/**
 * The custom fields the connector writes on Contact and Lead, once: their types, lengths and picklist values (the
 * service's own vocabularies, docs/api.md). metadata/ is rendered from this table (`npm run -s salesforce:metadata`;
 * a test fails when it drifts), the one-click set-up (setup.ts) creates the same fields through the Tooling API, and
 * the write-back cuts text to these lengths.
 */
import { NEXT_ACTIONS } from '../../src/contact-check/policies.js';
import { ADDRESS_STATUSES, PHONE_TYPES } from '../../src/validation/types.js';

export type FieldKind =
  | { type: 'Text'; length: number }
  | { type: 'Picklist'; values: readonly string[] }
  | { type: 'DateTime' };

export interface CustomFieldDef {
  label: string;
  description: string;
  kind: FieldKind;
  /** Written only in the "shadow fields" mode (write_back.shadow_fields): the standardized values beside the typed ones. */
  shadow?: boolean;
  /**
   * Added after orgs deployed the first metadata: written only where the object has it and the run-as user may edit it
   * (a field a save names and the org lacks fails the whole record), and the check warns rather than blocks.
   */
  optional?: true;
}

const text = (length: number) => ({ type: 'Text', length }) as const;
const picklist = (values: readonly string[]) => ({ type: 'Picklist', values }) as const;

const nextAction = (module: string) => ({
  label: `CV ${module} Next Action`, kind: picklist(NEXT_ACTIONS), optional: true,
  description: `What to do with the ${module === 'Email' ? 'e-mail' : module.toLowerCase()} under the connector's policy: accept, confirm or fix.`,
}) as const;

/** The verdict fields (always written, for the modules checked) and the shadow fields, in the order of the metadata. */
export const FIELD_DEFS = {
  CV_Address_Status__c: { label: 'CV Address Status', kind: picklist(ADDRESS_STATUSES), description: 'How far the address was confirmed.' },
  CV_Address_DPV__c: { label: 'CV Address DPV', kind: picklist(['Y', 'N', 'S', 'D']), description: 'USPS delivery point validation: Y, N, S or D (empty: no reference data).' },
  CV_Address_Standardized__c: { label: 'CV Address Standardized', kind: text(255), description: 'The standardized address, one line.' },
  CV_Email_Status__c: { label: 'CV Email Status', kind: picklist(['valid', 'invalid', 'risky', 'unknown']), description: 'The e-mail verdict.' },
  CV_Email_Risk__c: { label: 'CV Email Risk', kind: picklist(['low', 'medium', 'high']), description: 'The e-mail risk.' },
  CV_Phone_Status__c: { label: 'CV Phone Status', kind: picklist(['valid', 'invalid', 'unknown']), description: 'The phone verdict.' },
  CV_Phone_Type__c: { label: 'CV Phone Type', kind: picklist(PHONE_TYPES), description: 'The line type.' },
  CV_Phone_Carrier__c: { label: 'CV Phone Carrier', kind: text(100), description: 'The carrier, when known.' },
  CV_Validated_At__c: { label: 'CV Verified At', kind: { type: 'DateTime' }, description: 'When the record was last verified.' },
  CV_Address_Next_Action__c: nextAction('Address'),
  CV_Email_Next_Action__c: nextAction('Email'),
  CV_Phone_Next_Action__c: nextAction('Phone'),
  CV_Street__c: { label: 'CV Street', kind: text(255), shadow: true, description: 'The standardized street (shadow fields mode).' },
  CV_City__c: { label: 'CV City', kind: text(40), shadow: true, description: 'The standardized city (shadow fields mode).' },
  CV_State__c: { label: 'CV State', kind: text(80), shadow: true, description: 'The standardized state or province (shadow fields mode).' },
  CV_Postal_Code__c: { label: 'CV Postal Code', kind: text(20), shadow: true, description: 'The standardized postal code (shadow fields mode).' },
  CV_Email__c: { label: 'CV Email', kind: text(80), shadow: true, description: 'The e-mail address as normalized (shadow fields mode).' },
  CV_Phone_E164__c: { label: 'CV Phone E164', kind: text(20), shadow: true, description: 'The phone number in E.164 (shadow fields mode).' },
} as const satisfies Record<string, CustomFieldDef>;

export type CustomField = keyof typeof FIELD_DEFS;

/** The fields every write-back may set (the optional ones where the object has them); the shadow ones only in that mode. */
export const VERDICT_FIELDS = (Object.keys(FIELD_DEFS) as CustomField[]).filter((f) => !(FIELD_DEFS[f] as CustomFieldDef).shadow);
export const SHADOW_FIELDS = (Object.keys(FIELD_DEFS) as CustomField[]).filter((f) => (FIELD_DEFS[f] as CustomFieldDef).shadow);
/** The next-action fields: written where present, warned of where not. */
export const OPTIONAL_FIELDS = VERDICT_FIELDS.filter((f) => (FIELD_DEFS[f] as CustomFieldDef).optional);
/** What every run needs: the check blocks without them. */
export const REQUIRED_FIELDS = VERDICT_FIELDS.filter((f) => !(FIELD_DEFS[f] as CustomFieldDef).optional);

export const PERMISSION_SET = 'Contact_Validator_Integration';

/** The longest text a field takes (null: not a text field). */
export function maxLengthOf(name: CustomField): number | null {
  const kind: FieldKind = FIELD_DEFS[name].kind;
  return kind.type === 'Text' ? kind.length : null;
}

/** The value as the field takes it: cut to a text field's length; a value outside a picklist's list is left out (null). */
export function fitValue(name: CustomField, value: string | null | undefined): string | null {
  if (!value) return null;
  const kind: FieldKind = FIELD_DEFS[name].kind;
  if (kind.type === 'Picklist') return kind.values.includes(value) ? value : null;
  if (kind.type === 'Text' && value.length > kind.length) return value.slice(0, kind.length);
  return value;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Metadata API's CustomField for one field (metadata/force-app/main/default/objects/<Object>/fields/). */
export function fieldXml(name: CustomField): string {
  const def: CustomFieldDef = FIELD_DEFS[name];
  const kind = def.kind;
  const lines = [
    `    <fullName>${name}</fullName>`,
    `    <description>${escapeXml(def.description)}</description>`,
    `    <externalId>false</externalId>`,
    `    <label>${escapeXml(def.label)}</label>`,
    ...(kind.type === 'Text' ? [`    <length>${kind.length}</length>`] : []),
    `    <required>false</required>`,
    `    <trackHistory>false</trackHistory>`,
    `    <type>${kind.type}</type>`,
    ...(kind.type === 'Text' ? [`    <unique>false</unique>`] : []),
    ...(kind.type === 'Picklist' ? [
      '    <valueSet>',
      '        <restricted>true</restricted>',
      '        <valueSetDefinition>',
      '            <sorted>false</sorted>',
      ...kind.values.flatMap((v) => [
        '            <value>', `                <fullName>${escapeXml(v)}</fullName>`, '                <default>false</default>',
        `                <label>${escapeXml(v)}</label>`, '            </value>',
      ]),
      '        </valueSetDefinition>',
      '    </valueSet>',
    ] : []),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<CustomField xmlns="http://soap.sforce.com/2006/04/metadata">\n${lines.join('\n')}\n</CustomField>\n`;
}

/** The Tooling API's `Metadata` of a CustomField (the same definition as fieldXml, as JSON). */
export function fieldMetadata(name: CustomField): Record<string, unknown> {
  const def: CustomFieldDef = FIELD_DEFS[name];
  const kind = def.kind;
  return {
    label: def.label, description: def.description, type: kind.type, required: false, externalId: false,
    ...(kind.type === 'Text' ? { length: kind.length, unique: false } : {}),
    ...(kind.type === 'Picklist' ? {
      valueSet: { restricted: true, valueSetDefinition: { sorted: false, value: kind.values.map((v) => ({ fullName: v, label: v, default: false })) } },
    } : {}),
  };
}

export function permissionSetXml(objects: readonly string[]): string {
  const fields = objects.flatMap((o) => (Object.keys(FIELD_DEFS) as CustomField[]).map((f) => [
    '    <fieldPermissions>', '        <editable>true</editable>', `        <field>${o}.${f}</field>`, '        <readable>true</readable>',
    '    </fieldPermissions>',
  ].join('\n')));
  const objectPermissions = objects.map((o) => [
    '    <objectPermissions>', '        <allowCreate>false</allowCreate>', '        <allowDelete>false</allowDelete>',
    '        <allowEdit>true</allowEdit>', '        <allowRead>true</allowRead>', '        <modifyAllRecords>false</modifyAllRecords>',
    `        <object>${o}</object>`, '        <viewAllRecords>true</viewAllRecords>', '    </objectPermissions>',
  ].join('\n'));
  return `<?xml version="1.0" encoding="UTF-8"?>
<PermissionSet xmlns="http://soap.sforce.com/2006/04/metadata">
    <description>For the contact validator's integration user: API access, read and edit Contacts and Leads, edit the CV_ fields, Change Data Capture events.</description>
${fields.join('\n')}
    <hasActivationRequired>false</hasActivationRequired>
    <label>Contact Validator Integration</label>
${objectPermissions.join('\n')}
    <userPermissions>
        <enabled>true</enabled>
        <name>ApiEnabled</name>
    </userPermissions>
</PermissionSet>
`;
}

export function packageXml(objects: readonly string[], apiVersion: string): string {
  const members = objects.flatMap((o) => (Object.keys(FIELD_DEFS) as CustomField[]).map((f) => `        <members>${o}.${f}</members>`));
  return `<?xml version="1.0" encoding="UTF-8"?>
<Package xmlns="http://soap.sforce.com/2006/04/metadata">
    <types>
${members.join('\n')}
        <name>CustomField</name>
    </types>
    <types>
        <members>${PERMISSION_SET}</members>
        <name>PermissionSet</name>
    </types>
    <version>${apiVersion}</version>
</Package>
`;
}
