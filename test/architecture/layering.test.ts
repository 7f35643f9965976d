/**
 * The layering as the import statements show it (the README's layout section): the HTTP face (routes, dashboard,
 * checkout script) sits on top and nothing below it imports it; the engines in src/validation are the ground floor and
 * import nothing of the service. Every relative import, export-from and dynamic import() of src/** and connectors/**
 * is read (TypeScript's own pre-processor, so type-only imports count too) and checked against the one table below.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The HTTP face. Only the wiring (src/service.ts and the other files at the top of src/) and the face itself import it. */
const HTTP_FACE = ['src/http', 'src/web', 'src/widget'];

/**
 * A connector plugin (connectors/<platform>/) stands on the connector core and the engines' types only: never on the
 * HTTP face, the database or another plugin (what it needs of them, src/sync gives it).
 */
const PLUGIN_MAY_IMPORT = ['src/sync', 'src/contact-check', 'src/validation/types'];
const PLUGINS = fs.readdirSync(path.join(root, 'connectors'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** The rule table: a folder, and what its files may not import (or the only folders they may); the first that holds a file applies. */
const RULES: { from: string; mayNotImport?: readonly string[]; mayImportOnly?: readonly string[] }[] = [
  ...PLUGINS.map((plugin) => ({ from: `connectors/${plugin}`, mayImportOnly: [`connectors/${plugin}`, ...PLUGIN_MAY_IMPORT] })),
  { from: 'src/contact-check', mayNotImport: HTTP_FACE },
  { from: 'src/bulk', mayNotImport: HTTP_FACE },
  { from: 'src/batches', mayNotImport: HTTP_FACE },
  { from: 'src/billing', mayNotImport: HTTP_FACE },
  { from: 'src/sync', mayNotImport: HTTP_FACE },
  { from: 'src/db', mayNotImport: HTTP_FACE },
  { from: 'src/people', mayNotImport: HTTP_FACE },
  { from: 'src/net', mayNotImport: HTTP_FACE },
  { from: 'src/webhooks', mayNotImport: HTTP_FACE },
  { from: 'src/email-checks', mayNotImport: HTTP_FACE },
  { from: 'connectors', mayNotImport: HTTP_FACE },
  // The pure engines take their data, resolvers and clocks as arguments: no database, billing, jobs, use case or HTTP.
  { from: 'src/validation', mayImportOnly: ['src/validation'] },
];

/** `inside` is `folder` itself or a path under it (`src/http` holds `src/http/app`, not `src/https`). */
const within = (inside: string, folder: string) => inside === folder || inside.startsWith(`${folder}/`);

/** A module's path from the repository's root without its extension (`src/http/problems`). */
const moduleOf = (file: string) => file.replace(/\.[cm]?[jt]sx?$/, '');

/** The relative imports of one file, as module paths from the root. */
function importsOf(file: string, text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => moduleOf(path.posix.join(path.posix.dirname(file), spec)));
}

/** Every edge the rule table forbids, as "importer -> imported". */
function forbiddenEdges(files: { file: string; text: string }[]): string[] {
  const edges: string[] = [];
  for (const { file, text } of files) {
    const rule = RULES.find((r) => within(file, r.from));
    if (!rule) continue;
    for (const target of importsOf(file, text)) {
      const refused = rule.mayImportOnly
        ? !rule.mayImportOnly.some((allowed) => within(target, allowed))
        : rule.mayNotImport!.some((folder) => within(target, folder));
      if (refused) edges.push(`${file} -> ${target}`);
    }
  }
  return edges;
}

function sourceFiles(folder: string): { file: string; text: string }[] {
  return fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join(folder, f.split(path.sep).join('/')))
    .filter((f) => /\.[cm]?tsx?$/.test(f))
    .map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}

describe('the layering', () => {
  it('When the imports of src/ and connectors/ are read, then none crosses a line of the rule table', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('connectors')];

    const edges = forbiddenEdges(files);

    expect(files.length).toBeGreaterThan(100);
    expect(edges).toEqual([]);
  });

  it('When a module below the HTTP face imports it, then the check names that edge', () => {
    const files = [
      { file: 'src/bulk/record-pipeline.ts', text: "import { Problem } from '../http/problems.js';" },
      { file: 'src/sync/runs.ts', text: "export { page } from '../web/pages/layout.js';\nconst m = await import('../widget/routes.js');" },
      { file: 'connectors/shopify/index.ts', text: "import type { App } from '../../src/http/app.js';" },
      { file: 'connectors/index.ts', text: "import { salesforcePlugin } from './salesforce/index.js';\nimport type { App } from '../src/http/app.js';" },
      { file: 'src/http/endpoints/validate.ts', text: "import { Problem } from '../problems.js';" },
      { file: 'src/service.ts', text: "import { createApp } from './http/app.js';" },
    ];

    expect(forbiddenEdges(files)).toEqual([
      'src/bulk/record-pipeline.ts -> src/http/problems',
      'src/sync/runs.ts -> src/web/pages/layout',
      'src/sync/runs.ts -> src/widget/routes',
      'connectors/shopify/index.ts -> src/http/app',
      'connectors/index.ts -> src/http/app',
    ]);
  });

  it('When a plugin imports another plugin, the database or anything but the core and the engines\' types, then the check names that edge', () => {
    const files = [
      { file: 'connectors/shopify/webhooks.ts', text: "import type { Database } from '../../src/db/data-source.js';\nimport { SalesforceClient } from '../salesforce/client.js';" },
      { file: 'connectors/salesforce/check.ts', text: "import { tenantSafeText } from '../../src/net/tenant-safe-text.js';\nimport type { Logger } from '../../src/log.js';" },
      { file: 'connectors/shopify/install.ts', text: "import type { Connectors } from '../../src/sync/connectors.js';\nimport { recordOf } from './mapping.js';" },
      { file: 'connectors/salesforce/mapping.ts', text: "import type { AddressComponents } from '../../src/validation/types.js';\nimport type { ContactAnswer } from '../../src/contact-check/validate-contact.js';" },
      { file: 'connectors/salesforce/x.ts', text: "import { parseAddress } from '../../src/validation/address/parser.js';" },
    ];

    expect(forbiddenEdges(files)).toEqual([
      'connectors/shopify/webhooks.ts -> src/db/data-source',
      'connectors/shopify/webhooks.ts -> connectors/salesforce/client',
      'connectors/salesforce/check.ts -> src/net/tenant-safe-text',
      'connectors/salesforce/check.ts -> src/log',
      'connectors/salesforce/x.ts -> src/validation/address/parser',
    ]);
  });

  it('When an engine imports the database, billing, jobs, connectors, the use case or HTTP, then the check names that edge', () => {
    const files = [
      { file: 'src/validation/address/index.ts', text: "import { loadReferenceIndex } from '../../db/reference-store.js';" },
      { file: 'src/validation/engines.ts', text: "import type { CreditLedger } from '../billing/ledger.js';\nimport type { Engines } from '../contact-check/validate-contact.js';" },
      { file: 'src/validation/phone/x.ts', text: "import { JobStore } from '../../bulk/job-store.js';\nimport { Slots } from '../../sync/runs.js';\nimport { Problem } from '../../http/problems.js';" },
      { file: 'src/validation/email/x.ts', text: "import { syntax } from './syntax.js';\nimport type { EmailEngine } from '../types.js';\nimport { z } from 'zod';" },
    ];

    expect(forbiddenEdges(files)).toEqual([
      'src/validation/address/index.ts -> src/db/reference-store',
      'src/validation/engines.ts -> src/billing/ledger',
      'src/validation/engines.ts -> src/contact-check/validate-contact',
      'src/validation/phone/x.ts -> src/bulk/job-store',
      'src/validation/phone/x.ts -> src/sync/runs',
      'src/validation/phone/x.ts -> src/http/problems',
    ]);
  });
});
