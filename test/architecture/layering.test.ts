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
  // The floor below config: helpers every layer may use (crypto at rest), standing on nothing of the service.
  { from: 'src/kit', mayImportOnly: ['src/kit'] },
  // Configuration reads the environment into the engines' options: it stands on the floors below only, never on a
  // store, a use case or a face (which all read it).
  { from: 'src/config.ts', mayImportOnly: ['src/kit', 'src/net', 'src/validation'] },
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

/** The import graph of `files`: each module and the modules of the set it imports. */
function importGraph(files: { file: string; text: string }[]): Map<string, string[]> {
  const modules = new Set(files.map((f) => moduleOf(f.file)));
  const index = (m: string) => (modules.has(m) ? m : modules.has(`${m}/index`) ? `${m}/index` : null);
  return new Map(files.map(({ file, text }) => [
    moduleOf(file), [...new Set(importsOf(file, text).map(index).filter((m): m is string => m !== null))],
  ]));
}

/** The import cycles of a graph: its strongly connected components of more than one module (Tarjan), each sorted. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (m: string) => {
    order.set(m, order.size); low.set(m, order.get(m)!); stack.push(m); onStack.add(m);
    for (const next of graph.get(m) ?? []) {
      if (!order.has(next)) { visit(next); low.set(m, Math.min(low.get(m)!, low.get(next)!)); }
      else if (onStack.has(next)) low.set(m, Math.min(low.get(m)!, order.get(next)!));
    }
    if (low.get(m) !== order.get(m)) return;
    const component: string[] = [];
    let top: string;
    do { top = stack.pop()!; onStack.delete(top); component.push(top); } while (top !== m);
    if (component.length > 1 || (graph.get(m) ?? []).includes(m)) cycles.push(component.sort());
  };
  for (const m of graph.keys()) if (!order.has(m)) visit(m);
  return cycles.map((c) => c).sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * The cycles src/ still has, each with why it is not gone yet: the list may only shrink (a new cycle fails the test,
 * and so does a listed one that is gone, so that the list is kept true).
 */
const KNOWN_CYCLES: { cycle: string[]; why: string }[] = [
  {
    cycle: ['src/http/app', ...[
      'account', 'autocomplete', 'batches', 'connectors', 'email-checks', 'endpoint', 'feedback', 'index', 'install',
      'order-endpoints', 'policies', 'router', 'service', 'validate', 'validate-batch', 'webhook-endpoints', 'webhooks',
    ].map((e) => `src/http/endpoints/${e}`), 'src/http/openapi/document', 'src/http/openapi/problems', 'src/web/order-routes', 'src/web/routes'],
    why: "the HTTP face's circle (app.ts owns the dependency bag endpoint.ts imports back): goes with issue #56 item 1",
  },
  { cycle: ['src/sync/order-checks', 'src/sync/platform-access', 'src/sync/plugin'], why: 'type-only: the plugin contract names OrderChecks; an order-services interface below both is to come' },
];

/** Functions of more than this many lines, from the first line of their declaration to the last of their body. */
const MAX_FUNCTION_LINES = 120;

/** The functions over the limit, with why. The address parser's searches are documented as one search each. */
const LONG_FUNCTIONS: { at: string; why: string }[] = [
  { at: 'src/validation/address/parser/split-scoring.ts bestSplit', why: "the parser's documented search over splits (src/validation/address/README.md)" },
  { at: 'src/validation/address/north-america/us-last-line.ts reconcileUsLastLine', why: "the last line's documented search over city/state/ZIP readings" },
  { at: 'src/web/routes.ts dashboardRoutes', why: 'becomes declarations with issue #56 item 1' },
  { at: 'src/web/connector-routes.ts connectorRoutes', why: 'becomes declarations with issue #56 item 1' },
  { at: 'src/config.ts loadConfig', why: 'to split by section (one reader per env group)' },
  { at: 'src/contact-check/engines.ts createEngines', why: 'to split: one builder per engine' },
  { at: 'src/widget/autocomplete.ts attachAutocomplete', why: 'to split: the listeners apart from the suggestion list' },
];

/** `file name lines` of each function of `files` over the limit (arrow functions named by their variable). */
function longFunctions(files: { file: string; text: string }[], limit = MAX_FUNCTION_LINES): { at: string; lines: number }[] {
  const found: { at: string; lines: number }[] = [];
  for (const { file, text } of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const line = (at: number) => source.getLineAndCharacterOfPosition(at).line;
        const lines = line(node.getEnd()) - line(node.getStart()) + 1;
        const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
        if (lines > limit) found.push({ at: `${file} ${named?.getText(source) ?? '(anonymous)'}`, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
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

  it('When the import graph of src/ is read (type-only imports too), then it has no cycle but the known ones, each with its reason', () => {
    const cycles = importCycles(importGraph(sourceFiles('src')));

    expect(cycles).toEqual(KNOWN_CYCLES.map((k) => k.cycle));
  });

  it('When modules import each other round, then the check names the cycle; a chain without a loop is none', () => {
    const files = [
      { file: 'src/a/one.ts', text: "import { two } from './two.js';" },
      { file: 'src/a/two.ts', text: "import type { Three } from '../b/three.js';" },
      { file: 'src/b/three.ts', text: "export * from '../a/one.js';" },
      { file: 'src/b/four.ts', text: "import { one } from '../a/one.js';" },
      { file: 'src/c/index.ts', text: "import { five } from './five.js';" },
      { file: 'src/c/five.ts', text: "import { c } from '../c';" },
    ];

    expect(importCycles(importGraph(files))).toEqual([['src/a/one', 'src/a/two', 'src/b/three'], ['src/c/five', 'src/c/index']]);
  });

  it(`When the functions of src/ are measured, then none is over ${MAX_FUNCTION_LINES} lines but the listed ones`, () => {
    const long = longFunctions(sourceFiles('src')).map((f) => f.at).sort();

    expect(long).toEqual(LONG_FUNCTIONS.map((f) => f.at).sort());
  });

  it('When a function is over the limit, then the check names it by its file and name', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const files = [{ file: 'src/x.ts', text: `export function long() {\n${body}\n}\nconst short = () => 1;\nconst arrow = () => {\n${body}\n};` }];

    expect(longFunctions(files, 6)).toEqual([{ at: 'src/x.ts long', lines: 7 }, { at: 'src/x.ts arrow', lines: 7 }]);
  });

  it('When config imports a store or the service, or the kit imports anything of it, then the check names that edge', () => {
    const files = [
      { file: 'src/config.ts', text: "import { parseSecretKey } from './kit/secrets.js';\nimport { JobStore } from './bulk/job-store.js';\nimport type { Logger } from './log.js';" },
      { file: 'src/kit/secrets.ts', text: "import type { Config } from '../config.js';" },
    ];

    expect(forbiddenEdges(files)).toEqual([
      'src/config.ts -> src/bulk/job-store', 'src/config.ts -> src/log', 'src/kit/secrets.ts -> src/config',
    ]);
  });
});
