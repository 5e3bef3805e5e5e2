import { createResponseConformance } from '@ces/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BASE_PATH } from '../base-path.ts';
import { CONSOLE_PATH } from '../console/console-path.ts';
import { OPS_PATH } from '../routes/ops-routes.ts';
import { ROUTES } from '../route-table.ts';
import { startInProcessApp, type InProcessApp } from '../test-support/in-process-app.ts';
import { createOpenApiDocument } from './openapi-document.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface DocumentedOperation {
  method: string;
  template: string;
  summary?: string;
  description?: string;
}

function operationsOf(document: ReturnType<typeof createOpenApiDocument>): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    METHODS.filter((method) => (item as Record<string, unknown>)[method] !== undefined).map((method) => ({
      method: method.toUpperCase(),
      template,
      ...((item as Record<string, DocumentedOperation>)[method] ?? {}),
    })),
  );
}

/** A path the template stands for: each parameter one segment, or two for a Choreo id. */
const sampleOf = (template: string) => template.replace('/choreos/{id}', '/choreos/Library/Sample').replace(/\{[^}]+\}/g, 'sample');

describe('the OpenAPI document', () => {
  const document = createOpenApiDocument();
  const operations = operationsOf(document);

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('gives every operation a summary and a description', () => {
    const undescribed = operations.filter((operation) => !operation.summary?.trim() || !operation.description?.trim());
    expect(undescribed.map(({ method, template }) => `${method} ${template}`)).toEqual([]);
  });

  it('describes every path and method of the route table', () => {
    const missing = ROUTES.flatMap(({ pattern, methods }) =>
      methods
        .filter((method) => !operations.some((operation) => operation.method === method && pattern.test(sampleOf(operation.template))))
        .map((method) => `${method} ${pattern}`),
    );
    expect(missing).toEqual([]);
  });

  it('describes nothing the route table does not have, but the public callback URLs', () => {
    const unknown = operations.filter(
      ({ method, template }) =>
        !template.startsWith('/callbacks/') && !ROUTES.some(({ pattern, methods }) => methods.includes(method) && pattern.test(sampleOf(template))),
    );
    expect(unknown.map(({ method, template }) => `${method} ${template}`)).toEqual([]);
  });

  it('has the security schemes of the interface, and names the extensions', () => {
    expect(document.components?.securitySchemes).toMatchObject({
      basicAuth: { type: 'http', scheme: 'basic' },
      serviceDomain: { type: 'apiKey', in: 'header', name: 'x-service-domain' },
    });
    const text = JSON.stringify(document);
    for (const extension of ['preset', 'outputFilters', 'source_id', 'store_results', 'respond-async', 'idempotency-key']) expect(text).toContain(extension);
    const paths = document.paths as Record<string, { post?: { requestBody?: { content?: Record<string, unknown> } } }>;
    expect(Object.keys(paths[`${BASE_PATH}/choreos/{id}`]?.post?.requestBody?.content ?? {})).toEqual(['application/json', 'application/xml']);
  });

  it('describes a Choreo document as the schema that validates it does', () => {
    const paths = document.paths as Record<string, { put?: { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } } }>;
    const schema = paths[`${BASE_PATH}/choreos/{id}`]?.put?.requestBody?.content?.['application/json']?.schema;
    expect(schema).toMatchObject({ type: 'object', required: ['description', 'steps'], additionalProperties: false });
    expect(Object.keys((schema?.properties as Record<string, unknown>) ?? {}).sort()).toEqual([
      'description',
      'inputs',
      'outputs',
      'steps',
      'timeLimitSeconds',
    ]);
  });
});

describe('the response check', () => {
  const conform = createResponseConformance(createOpenApiDocument());
  const json = (body: unknown, status: number) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });
  const error = { error: { message: 'No such Choreo.', code: 'NOT_FOUND', requestId: 'r' } };

  it('passes an answer the document allows', () => {
    conform('GET', `${BASE_PATH}/choreos`, json({ resources: ['/A/B'] }, 200));
    conform('GET', `${BASE_PATH}/choreos/A/B`, json(error, 404));
  });

  it('refuses a body that differs from its schema, a status the operation does not list, and another content type', () => {
    expect(() => conform('GET', `${BASE_PATH}/choreos`, json({ resources: [1] }, 200))).toThrow(/does not match/);
    expect(() => conform('GET', `${BASE_PATH}/choreos`, json(error, 409))).toThrow(/no 409/);
    expect(() => conform('GET', `${BASE_PATH}/choreos`, { status: 200, contentType: 'text/plain', text: 'x' })).toThrow(/Content-Type/);
    expect(() => conform('GET', '/nowhere', json({ oops: true }, 404))).toThrow(/does not match/);
    const xml = (text: string, status: number) => ({ status, contentType: 'application/xml; charset=UTF-8', text });
    conform('GET', `${BASE_PATH}/choreos`, xml('<?xml version="1.0" encoding="UTF-8"?><resources><resource>/A</resource></resources>', 200));
    expect(() => conform('GET', `${BASE_PATH}/choreos`, xml('<?xml version="1.0"?><choreo/>', 200))).toThrow(/XML root is <choreo>/);
  });
});

describe('the document and the page, served', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers the document without credentials or domain header, whatever Accept says', async () => {
    for (const accept of ['application/json', 'application/xml', 'text/html']) {
      const response = await t.app.request(`${BASE_PATH}/openapi.json`, { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
    }
  });

  it('serves the page and its assets from this origin only, under a policy of its own', async () => {
    const page = await t.app.request(`${BASE_PATH}/docs`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self';/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'docs/start.js']) {
      expect(html).toContain(asset);
      const response = await t.app.request(`${BASE_PATH}/${asset}`);
      expect(response.status).toBe(200);
    }
    expect((await t.app.request(`${BASE_PATH}/docs/package.json`)).status).toBe(404);
    // Other methods meet the interface's authentication first, as any path under it does.
    expect((await t.call('POST', '/docs', t.credentials.alice)).status).toBe(405);
  });

  it('describes every route the app registers outside /ops, /metrics and the console', () => {
    const documented = operationsOf(createOpenApiDocument());
    const served = t.app.routes.filter(
      ({ method, path }) =>
        method !== 'ALL' && !path.startsWith(OPS_PATH) && !path.startsWith(CONSOLE_PATH) && path !== '/metrics' && !path.startsWith(`${BASE_PATH}/docs/`),
    );
    const missing = served.filter(
      ({ method, path }) =>
        !documented.some(
          (operation) =>
            operation.method === method && operation.template.replace(/\{[^}]+\}/g, ':') === path.replace(/:[^/]+/g, ':').replace(/\{[^}]*\}/g, ''),
        ),
    );
    expect(served.length).toBeGreaterThan(12);
    expect(missing.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  });
});
