/**
 * Builds an extension of connectors/shopify/extensions/ the way Shopify's CLI does (`shopify app build`, its
 * services/extensions/bundle.ts and the ui_extension specification): one esbuild bundle per extension, whose entry is
 * generated from shopify.extension.toml as `import Target_N from '<module>'; shopify.extend('<target>', …)` for each
 * target, with the CLI's options (ES6, automatic JSX, minified, production). No network and no @shopify/cli needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import { parse } from 'smol-toml';

export const EXTENSIONS_DIR = path.resolve(import.meta.dirname, '../../../connectors/shopify/extensions');

/** Shopify's limit for UI extensions on API version 2025-10 and later: 64 KB of compressed JavaScript per extension. */
export const SIZE_LIMIT_COMPRESSED = 64 * 1024;

export interface ExtensionConfig {
  api_version: string;
  extensions: {
    name: string;
    handle: string;
    type: string;
    targeting: { target: string; module: string }[];
    capabilities?: Record<string, unknown>;
    settings?: { fields: { key: string; type: string; validations?: { name: string; value: string }[] }[] };
  }[];
}

export interface ExtensionBundle {
  handle: string;
  targets: string[];
  code: string;
  bytes: number;
  gzipBytes: number;
}

export function extensionConfig(handle: string): ExtensionConfig {
  return parse(fs.readFileSync(path.join(EXTENSIONS_DIR, handle, 'shopify.extension.toml'), 'utf8')) as unknown as ExtensionConfig;
}

export async function bundleExtension(handle: string): Promise<ExtensionBundle> {
  const dir = path.join(EXTENSIONS_DIR, handle);
  const [extension] = extensionConfig(handle).extensions;
  const entry = extension.targeting
    .map(({ target, module }, i) => `import Target_${i} from '${module}';shopify.extend('${target}', (...args) => Target_${i}(...args));`)
    .join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: dir, loader: 'tsx', sourcefile: 'extension-entry.tsx' },
    bundle: true,
    write: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    jsx: 'automatic',
    loader: { '.esnext': 'ts', '.js': 'jsx' },
    legalComments: 'none',
    minify: true,
    target: 'es6',
    resolveExtensions: ['.tsx', '.ts', '.js', '.json', '.esnext', '.mjs', '.ejs'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return {
    handle,
    targets: extension.targeting.map((t) => t.target),
    code,
    bytes: Buffer.byteLength(code),
    gzipBytes: zlib.gzipSync(code, { level: 9 }).length,
  };
}
