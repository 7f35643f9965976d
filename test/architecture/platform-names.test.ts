/**
 * The core knows no platform (issue #53): outside `connectors/`, a platform's name (Shopify, Salesforce, HubSpot) may
 * appear in comments and docs that name it as an example, and in the few public names listed below, each with why it
 * stays: names merchants' installs, extensions and clients already hold (URLs, problem types, component ids) and the
 * environment variables an operator sets. Anything else is the core reaching a plugin by name instead of through the
 * registry (connectors/index.ts), and fails here with its file and line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const PLATFORM = /shopify|salesforce|hubspot/i;

/**
 * Files whose code (not only comments) still names a platform, and why. A line there is allowed when it matches the
 * file's pattern: a new mention of a platform elsewhere in the same file still fails.
 */
const PUBLIC_NAMES: { file: string; line: RegExp; why: string }[] = [
  { file: 'src/config.ts', line: /SHOPIFY_|SALESFORCE_|HUBSPOT_|shopify|salesforce|hubspot/i, why: 'the environment variables operators set; config.ts is their one reader, and passes `connectors` whole to the registry' },
  { file: 'src/http/problems.ts', line: /'shopify-|'session-token-invalid'/, why: 'problem types of the public catalogue (docs/api.md): a client matches on them' },
  { file: 'src/http/endpoints/install.ts', line: /'shopify-install-refused'|'shopify-app-not-configured'|ShopifyInstall(Request|Link)|myshopify\.com/, why: 'the install problem types and OpenAPI component ids, public since the first install platform' },
  { file: 'src/http/endpoints/order-endpoints.ts', line: /\/shopify\/orders\/|shopifycdn|gid:\\\/\\\/shopify|gid:\/\/shopify|Shopify|myshopify\.com|answerShopify|getShopify/, why: "the checkout extensions' URLs and order ids as the deployed extensions call them" },
  { file: 'src/cli/commands.ts', line: /summary: /, why: 'help text naming the platforms as examples' },
];

/** A line that is a comment (or inside a block comment's `*` lines). */
const isComment = (line: string) => /^\s*(\/\/|\/?\*)/.test(line);

function files(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join(folder, f.split(path.sep).join('/')))
    .filter((f) => /\.[cm]?tsx?$/.test(f));
}

/** Every line of src/ that names a platform outside a comment and outside the public names: `file:line: text`. */
function platformNamesIn(sources: { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of sources) {
    text.split('\n').forEach((line, i) => {
      if (!PLATFORM.test(line) || isComment(line)) return;
      if (PUBLIC_NAMES.some((p) => p.file === file && p.line.test(line))) return;
      found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

describe('platform names in the core', () => {
  it('When src/ is read, then no line of code names a platform but the public names listed with their reasons', () => {
    const sources = files('src').map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
    expect(platformNamesIn(sources)).toEqual([]);
  });

  it('When a core file names a platform in code, then the check finds it; a comment naming one as an example passes', () => {
    const found = platformNamesIn([
      { file: 'src/web/connector-routes.ts', text: "// e.g. Shopify's install\nconst type = text(body.type) === 'shopify' ? 'shopify' : 'salesforce';" },
      { file: 'src/service.ts', text: "import { ShopifyWebhooks } from '../connectors/shopify/webhooks.js';" },
      { file: 'src/http/problems.ts', text: "  'shopify-install-refused': { status: 400 },\n  const hubspot = 1;" },
    ]);
    expect(found).toEqual([
      "src/web/connector-routes.ts:2: const type = text(body.type) === 'shopify' ? 'shopify' : 'salesforce';",
      "src/service.ts:1: import { ShopifyWebhooks } from '../connectors/shopify/webhooks.js';",
      'src/http/problems.ts:2: const hubspot = 1;',
    ]);
  });

  it('When the registry is read, then it is the one place that lists the plugins, one line each', () => {
    const registry = fs.readFileSync(path.join(root, 'connectors/index.ts'), 'utf8');
    const plugins = fs.readdirSync(path.join(root, 'connectors'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    for (const plugin of plugins) expect(registry, plugin).toMatch(new RegExp(`from './${plugin}/index\\.js'`));
  });
});
