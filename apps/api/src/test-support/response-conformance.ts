import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { interfacePath } from '../interface-path.ts';
import { createOpenApiDocument, type OpenApiDocument } from '../openapi/openapi-document.ts';

interface DocumentedResponse {
  content?: Record<string, { schema?: unknown }>;
}

interface DocumentedOperation {
  pattern: RegExp;
  method: string;
  template: string;
  responses: Record<string, DocumentedResponse>;
}

/** Checks one answer of the service; throws, saying what differs, when the OpenAPI document does not allow it. */
export type ResponseConformance = (method: string, path: string, response: Response) => Promise<void>;

/** A Choreo id is a path of its own; every other parameter is one segment. */
function patternOf(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (part === '{id}' && template.includes('/choreos/')) return '.+';
      if (/^\{[^}]+\}$/.test(part)) return '[^/]+';
      return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The answers' check against the document the service serves: status, Content-Type and, for JSON,
 * the body against the schema of that status. Answers on paths the document does not have (an
 * unknown path's 404, a wrong method's 405) must still be the one error shape.
 */
export function createResponseConformance(document: OpenApiDocument = createOpenApiDocument()): ResponseConformance {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const components = document.components ?? {};
  const validators = new Map<unknown, ValidateFunction>();
  const validatorFor = (schema: unknown) => {
    let validate = validators.get(schema);
    if (!validate) {
      // The document's own references (#/components/…) resolve against the compiled schema's root.
      validate = ajv.compile({ ...(schema as object), components });
      validators.set(schema, validate);
    }
    return validate;
  };
  const operations: DocumentedOperation[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, { responses?: Record<string, DocumentedResponse> }>)) {
      if (!operation?.responses) continue;
      operations.push({ pattern: patternOf(template), method: method.toUpperCase(), template, responses: operation.responses });
    }
  }
  const errorSchema = { $ref: '#/components/schemas/Error' };

  return async (method, path, response) => {
    const asked = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    // Routed as the service routes it: the doubled slashes at the joins that old clients send are dropped.
    const pathOnly = interfacePath(path.split('?')[0] ?? path);
    const operation = operations.find((candidate) => candidate.method === asked && candidate.pattern.test(pathOnly));
    const where = `${method} ${pathOnly} → ${response.status}`;
    const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    const text = method.toUpperCase() === 'HEAD' ? '' : await response.text();
    let content: Record<string, { schema?: unknown }> | undefined;
    if (operation) {
      const documented = operation.responses[String(response.status)];
      if (!documented) throw new Error(`${where}: the document lists no ${response.status} for ${asked} ${operation.template}`);
      content = documented.content;
    } else {
      if (response.status < 400) throw new Error(`${where}: the document has no such operation`);
      content = { 'application/json': { schema: errorSchema }, 'application/xml': { schema: errorSchema } };
    }
    if (!content || text === '') {
      if (text !== '' && content === undefined) throw new Error(`${where}: the document says this answer has no body, it had ${type}`);
      return;
    }
    const media = type === undefined ? undefined : (content[type] ?? content['*/*']);
    if (!media) throw new Error(`${where}: Content-Type ${type} is not one of ${Object.keys(content).join(', ')}`);
    if (type !== 'application/json' || media.schema === undefined) return;
    const validate = validatorFor(media.schema);
    if (!validate(JSON.parse(text)))
      throw new Error(`${where}: the body does not match the document: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`);
  };
}
