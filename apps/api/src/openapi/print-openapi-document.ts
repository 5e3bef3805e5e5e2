// Prints the interface's OpenAPI document, as `GET /service-api/1.0/openapi.json` serves it, on
// stdout: the typed client is generated from it without starting a service.
import { createOpenApiDocument } from './openapi-document.ts';

process.stdout.write(`${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
