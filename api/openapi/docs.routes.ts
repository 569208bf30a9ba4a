import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');

/**
 * /openapi.json, /docs (Swagger UI) and /redoc (ReDoc), served from the npm packages: they work
 * offline, with no CDN. The pages load only same-origin scripts (a strict CSP says so).
 */
export function docsRoutes(document: Record<string, unknown>): Router {
  const router = Router();
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; script-src 'self'";

  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });

  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  router.get('/docs/init.js', (_req, res) => {
    res
      .type('application/javascript')
      .send("window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, withCredentials: true });");
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.type('html').send(`<!doctype html>
<html><head><meta charset="utf-8"><title>Berth API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`);
  });

  router.get('/redoc/redoc.standalone.js', (_req, res) => {
    res.sendFile(redocBundle, { maxAge: '1d' });
  });
  router.get('/redoc', (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.type('html').send(`<!doctype html>
<html><head><meta charset="utf-8"><title>Berth API reference</title></head>
<body><redoc spec-url="/openapi.json"></redoc>
<script src="/redoc/redoc.standalone.js"></script></body></html>`);
  });
  return router;
}
