/**
 * GET /v1/openapi.json (the description, built once on first use) and GET /docs, a page that renders it with
 * Swagger UI served from the installed swagger-ui-dist package: no CDN, no inline script (CSP `script-src 'self'`).
 * The endpoints are declared in ../endpoints/service.ts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Request, Response } from 'express';
import { Problem } from '../problems.js';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png']);

/** Swagger UI draws its icons as data: SVG and sets inline styles from script (CSSOM), which CSP leaves alone. */
const DOCS_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self' data:",
  "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>contact-validator API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <noscript>This page needs JavaScript; the description itself is <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const DOCS_INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** The description as JSON (`description`: built once, on first use, by the application). */
export function sendDescription(res: Response, description: () => string): void {
  res.set({ 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' })
    .type('application/json; charset=utf-8').send(description());
}

export function sendDocsPage(res: Response): void {
  res.set({
    'Content-Security-Policy': DOCS_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'public, max-age=300',
  }).type('html').send(DOCS_PAGE);
}

export function sendDocsInit(res: Response): void {
  res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' }).type('text/javascript').send(DOCS_INIT);
}

export async function sendDocsAsset(req: Request, res: Response): Promise<void> {
  const file = String(req.params.file);
  if (!ASSETS.has(file)) throw new Problem('not-found', 'No such file.');
  res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=86400' });
  await new Promise<void>((resolve, reject) => {
    res.sendFile(file, { root: SWAGGER_UI_DIR, dotfiles: 'deny' }, (err) => (err ? reject(err) : resolve()));
  });
}
