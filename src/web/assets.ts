/** The dashboard's stylesheet and script, each one small file with a content-hash ETag (no framework, no CDN). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Request, Response, Router } from 'express';
import { builtAsset, lazyBrowserScript, notModified, type BuiltScript } from '../http/browser-script.js';

const STYLESHEET = fileURLToPath(new URL('./assets/dashboard.css', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./assets/dashboard.ts', import.meta.url));
const MAX_AGE_S = 300;

export function dashboardAssets(router: Router): void {
  const script = lazyBrowserScript(SCRIPT);
  let css: BuiltScript | undefined;
  const send = (req: Request, res: Response, asset: BuiltScript, type: string) => {
    res.set({ 'Content-Type': type, 'Cache-Control': `public, max-age=${MAX_AGE_S}`, ETag: asset.etag, 'X-Content-Type-Options': 'nosniff' });
    if (notModified(req, asset.etag)) return void res.status(304).end();
    res.send(asset.code);
  };
  router.get('/assets/dashboard.css', (req, res) => {
    css ??= builtAsset(fs.readFileSync(STYLESHEET, 'utf8'));
    send(req, res, css, 'text/css; charset=utf-8');
  });
  router.get('/assets/dashboard.js', async (req, res) => {
    send(req, res, await script(), 'text/javascript; charset=utf-8');
  });
}
