import { BASE_PATH } from '../base-path.ts';
import type { Operation } from './operation.ts';

/** The OpenAPI document of the interface, and the page that shows it: public, no credentials. */
export const OPENAPI_DOCUMENT_PATH = `${BASE_PATH}/openapi.json`;
export const API_REFERENCE_PATH = `${BASE_PATH}/docs`;

export const interfaceDocumentOperations: Operation[] = [
  {
    method: 'get',
    path: OPENAPI_DOCUMENT_PATH,
    operationId: 'openApiDocument',
    tags: ['Service'],
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the service, generated from the schemas its routes validate with. No credentials.',
    security: [],
    responses: { 200: { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
  {
    method: 'get',
    path: API_REFERENCE_PATH,
    operationId: 'apiReference',
    tags: ['Service'],
    summary: 'The interface reference page',
    description:
      'This document rendered, with "Try it out" against this server; its scripts and styles are served from here, nothing from elsewhere. No credentials.',
    security: [],
    responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
];
