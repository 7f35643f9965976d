/**
 * Scripts the service sends to browsers (the checkout widget, the dashboard's), written in TypeScript and bundled by
 * esbuild on first request into one minified IIFE (no globals) for ES2020, which browsers since 2020 run; kept in
 * memory with a content hash as the ETag.
 */
import crypto from 'node:crypto';
import type { Request } from 'express';

export interface BuiltScript {
  code: string;
  etag: string;
}

export async function buildBrowserScript(entry: string): Promise<BuiltScript> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  return builtAsset(result.outputFiles[0].text);
}

/** A text served as it is, with its content hash as the ETag. */
export function builtAsset(code: string): BuiltScript {
  return { code, etag: `"${crypto.createHash('sha256').update(code).digest('base64url').slice(0, 22)}"` };
}

/** Built once, on first use; a failed build is tried again on the next request. */
export function lazyBrowserScript(entry: string): () => Promise<BuiltScript> {
  let built: Promise<BuiltScript> | undefined;
  return () => {
    built ??= buildBrowserScript(entry).catch((err: unknown) => {
      built = undefined;
      throw err;
    });
    return built;
  };
}

/** RFC 9110 §13.1.2: whether the client's copy (If-None-Match) is this one. */
export function notModified(req: Request, etag: string): boolean {
  const ifNoneMatch = req.get('if-none-match');
  return Boolean(ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).some((t) => t === etag || t === `W/${etag}` || t === '*'));
}
