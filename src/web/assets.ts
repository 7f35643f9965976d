/** The dashboard's stylesheet, script and icon, each one small file with a content-hash ETag (no framework, no CDN). */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Request, Response, Router } from 'express';
import { builtAsset, lazyBrowserScript, notModified } from '../http/browser-script.js';

const STYLESHEET = fileURLToPath(new URL('./assets/dashboard.css', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./assets/dashboard.ts', import.meta.url));
const MAX_AGE_S = 300;
const ICON_MAX_AGE_S = 86_400;

interface Asset {
  code: string | Buffer;
  etag: string;
}

function send(req: Request, res: Response, asset: Asset, type: string, maxAgeS = MAX_AGE_S) {
  res.set({ 'Content-Type': type, 'Cache-Control': `public, max-age=${maxAgeS}`, ETag: asset.etag, 'X-Content-Type-Options': 'nosniff' });
  if (notModified(req, asset.etag)) return void res.status(304).end();
  res.send(asset.code);
}

export function dashboardAssets(router: Router): void {
  const script = lazyBrowserScript(SCRIPT);
  let css: Asset | undefined;
  router.get('/assets/dashboard.css', (req, res) => {
    css ??= builtAsset(fs.readFileSync(STYLESHEET, 'utf8'));
    send(req, res, css, 'text/css; charset=utf-8');
  });
  router.get('/assets/dashboard.js', async (req, res) => {
    send(req, res, await script(), 'text/javascript; charset=utf-8');
  });
}

const ICONS = [
  ['/favicon.svg', 'favicon.svg', 'image/svg+xml'],
  // The same drawing at 16, 32 and 48 px (PNG images in an ICO file), for browsers and tools that ask for this path.
  ['/favicon.ico', 'favicon.ico', 'image/x-icon'],
] as const;

/** The service's icon: named by every page (`<link rel=icon>`), and where browsers look for it unasked. */
export function iconRoutes(router: Router): void {
  for (const [route, file, type] of ICONS) {
    let icon: Asset | undefined;
    router.get(route, (req, res) => {
      if (!icon) {
        const body = fs.readFileSync(fileURLToPath(new URL(`./assets/${file}`, import.meta.url)));
        icon = { code: body, etag: builtAsset(body.toString('base64')).etag };
      }
      send(req, res, icon, type, ICON_MAX_AGE_S);
    });
  }
}
