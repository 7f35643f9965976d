/**
 * The Shopify app as a partner deploys it (connectors/shopify/shopify.app.toml and extensions/): each extension's
 * configuration says what Shopify needs, every text it shows is translated, and its bundle, built as Shopify's CLI
 * builds it (bundle.ts), stays within Shopify's size limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { bundleExtension, extensionConfig, EXTENSIONS_DIR, SIZE_LIMIT_COMPRESSED } from './bundle.js';

const EXTENSIONS = {
  'address-check': ['purchase.checkout.delivery-address.render-after'],
  'address-autocomplete': ['purchase.address-autocomplete.suggest', 'purchase.address-autocomplete.format-suggestion'],
  'address-confirmation': ['purchase.thank-you.customer-information.render-after', 'customer-account.order-status.customer-information.render-after'],
} as const;

/** Every key a locale file defines, dotted (`suggest.heading`). */
function keysOf(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

/** The text of an extension's own sources (and the core ones they import). */
function sourcesOf(handle: string): string[] {
  return ['src', '../core'].flatMap((dir) => {
    const folder = path.join(EXTENSIONS_DIR, handle, dir);
    return fs.readdirSync(folder).map((f) => fs.readFileSync(path.join(folder, f), 'utf8'));
  });
}

/** The keys the extension's sources translate: t('…') and t(`…${x}`) with x one of `choices`. */
function keysUsed(handle: string): string[] {
  const text = sourcesOf(handle).join('\n');
  const plain = [...text.matchAll(/\bt\('([\w.]+)'/g)].map((m) => m[1]);
  const ternaries = [...text.matchAll(/\bt\(\w+ \? '([\w.]+)' : '([\w.]+)'\)/g)].flatMap((m) => [m[1], m[2]]);
  return [...new Set([...plain, ...ternaries])];
}

describe('the Shopify extensions', () => {
  it.each(Object.entries(EXTENSIONS))('When %s is built as the CLI builds it, then it registers its targets and stays under 64 KB compressed', async (handle, targets) => {
    const bundle = await bundleExtension(handle);

    console.info(`${handle}: ${bundle.bytes} bytes minified, ${bundle.gzipBytes} bytes gzipped (limit ${SIZE_LIMIT_COMPRESSED})`);
    expect(bundle.targets).toEqual(targets);
    for (const target of targets) expect(bundle.code.includes(`shopify.extend("${target}"`)).toBe(true);
    expect(bundle.gzipBytes).toBeLessThan(SIZE_LIMIT_COMPRESSED);
    // The service's answers are data: the extension's own code never turns text into markup or code.
    expect(sourcesOf(handle).filter((file) => /dangerouslySetInnerHTML|\beval\(|new Function\(/.test(file))).toEqual([]);
  });

  it.each(Object.keys(EXTENSIONS))('When the configuration of %s is read, then it is deployable: a 2026 API version, network access, its settings', (handle) => {
    const config = extensionConfig(handle);
    const [extension] = config.extensions;
    const settings = Object.fromEntries(extension.settings!.fields.map((f) => [f.key, f]));

    // Shopify deploys only extensions on API version 2026-01 or later since 1 October 2026.
    expect(config.api_version >= '2026-01').toBe(true);
    expect(extension).toMatchObject({ type: 'ui_extension', handle, capabilities: { network_access: true } });
    for (const { module } of extension.targeting) expect(fs.existsSync(path.join(EXTENSIONS_DIR, handle, module))).toBe(true);
    expect(settings.api_url.type).toBe('single_line_text_field');
    if (handle !== 'address-confirmation') expect(settings.publishable_key.type).toBe('single_line_text_field');
    if (handle === 'address-check') expect(extension.capabilities).toMatchObject({ block_progress: true });
  });

  it.each(['address-check', 'address-confirmation'])('When %s shows a text, then the default locale has it, and French has the same keys', (handle) => {
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(EXTENSIONS_DIR, handle, 'locales', file), 'utf8'));
    const english = keysOf(read('en.default.json'));
    const french = keysOf(read('fr.json'));

    expect(keysUsed(handle).filter((k) => !english.includes(k))).toEqual([]);
    expect(french.sort()).toEqual([...english].sort());
  });

  it('When shopify.app.toml is read, then it asks for the scopes the connector uses and subscribes orders/create and the privacy topics', () => {
    const app = parse(fs.readFileSync(path.join(EXTENSIONS_DIR, '..', 'shopify.app.toml'), 'utf8')) as {
      access_scopes: { scopes: string }; webhooks: { subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[] };
      auth: { redirect_urls: string[] };
    };
    const topics = app.webhooks.subscriptions.flatMap((s) => [...(s.topics ?? []), ...(s.compliance_topics ?? [])]);

    expect(app.access_scopes.scopes.split(',')).toEqual(expect.arrayContaining(['read_customers', 'write_customers', 'read_orders', 'write_orders', 'write_merchant_managed_fulfillment_orders']));
    expect(topics).toEqual(expect.arrayContaining(['orders/create', 'orders/updated', 'app/uninstalled', 'customers/data_request', 'customers/redact', 'shop/redact']));
    expect(new Set(app.webhooks.subscriptions.map((s) => new URL(s.uri).pathname))).toEqual(new Set(['/webhooks/shopify']));
    expect(app.auth.redirect_urls.map((u) => new URL(u).pathname)).toEqual(['/shopify/callback']);
  });
});
