import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { API_REFERENCE_PATH, OPENAPI_DOCUMENT_PATH } from '../openapi/interface-document-operations.ts';
import { createOpenApiDocument } from '../openapi/openapi-document.ts';

/**
 * Only this origin: the page's scripts, styles and requests stay on the service, so it works offline
 * and a compromised page cannot send credentials anywhere else. `data:` images are Swagger UI's icons.
 */
export const API_REFERENCE_CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Swagger UI's files the page loads, and their types; anything else under the page's path is 404. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

// Relative addresses, so that the page works under whatever prefix a proxy serves the service.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Choreo Execution Service — interface</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/start.js"></script>
</body>
</html>
`;

// A file of its own, not inline: the policy allows no inline script. No validator: Swagger UI's
// default sends the document to a validator of another origin. A Choreo id is a path, which
// Swagger UI encodes as one segment (%2F), and an encoded slash names no Choreo: its slashes are
// given back before the request leaves.
const START = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  requestInterceptor: (request) => {
    request.url = request.url.replace(/(\\/choreos\\/)([^?#]*)/, (_, collection, id) => collection + id.replace(/%2F/gi, '/'));
    return request;
  },
});
`;

/**
 * `GET /service-api/1.0/openapi.json` and `GET /service-api/1.0/docs`: public, mounted before the
 * interface's authentication. The document is generated once, on its first request.
 */
export function interfaceDocumentRoutes() {
  let document: string | undefined;
  const assets = new Map<string, Promise<string>>();
  const pageHeaders = { 'Content-Security-Policy': API_REFERENCE_CSP, 'X-Content-Type-Options': 'nosniff' };
  return new Hono<AppEnv>()
    .get(OPENAPI_DOCUMENT_PATH, (c) => {
      document ??= JSON.stringify(createOpenApiDocument());
      return c.body(document, 200, { 'Content-Type': 'application/json' });
    })
    .get(API_REFERENCE_PATH, (c) => c.html(PAGE, 200, pageHeaders))
    .get(`${API_REFERENCE_PATH}/start.js`, (c) => c.body(START, 200, { ...pageHeaders, 'Content-Type': 'text/javascript; charset=utf-8' }))
    .get(`${API_REFERENCE_PATH}/:asset`, async (c) => {
      const asset = c.req.param('asset');
      const type = ASSETS[asset];
      if (type === undefined) throw new ApiError('NOT_FOUND');
      let text = assets.get(asset);
      if (!text) {
        text = readFile(join(SWAGGER_UI_DIR, asset), 'utf8');
        assets.set(asset, text);
      }
      return c.body(await text, 200, { ...pageHeaders, 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
    });
}
