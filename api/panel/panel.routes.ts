import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router, type Request } from 'express';

/** Where `vite build` puts the panel (ops/lib/panel.sh builds it when its sources changed). */
export const PANEL_DIST = fileURLToPath(new URL('../../panel/dist/', import.meta.url));

/** The API's own paths: never answered with the panel's page. */
const API_PATHS = /^\/(v1|api|docs|redoc|openapi\.json)(\/|$)/;

/**
 * The panel's page for a browser's navigation: a GET asking for HTML, outside the API's paths. A
 * program asking for JSON at an unknown path still gets the JSON 404.
 */
function isPanelNavigation(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && !API_PATHS.test(req.path) && req.accepts(['json', 'html']) === 'html';
}

// Only same-origin code and calls: the session cookies are HttpOnly, and no script of another
// origin runs in the page that holds the CSRF cookie. Inline style attributes are not allowed either
// (React sets styles through the CSSOM, which this does not restrict).
const PANEL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web panel at / on the API's origin: hashed assets cached for a year, index.html for every
 * page path (the panel routes in the browser), never cached, framed by nobody.
 */
export function panelRoutes(distDir = PANEL_DIST): Router {
  const router = Router();
  const indexFile = `${distDir}index.html`;
  router.use('/assets', express.static(`${distDir}assets`, { index: false, immutable: true, maxAge: '365d' }));
  router.use((req, res, next) => {
    if (!isPanelNavigation(req)) return next();
    if (!existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web panel is not built: run `npm start` (it builds it), or `npm run build:panel`.\n');
      return;
    }
    res.setHeader('Content-Security-Policy', PANEL_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
  return router;
}
