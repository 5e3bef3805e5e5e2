import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** What the check needs of an OpenAPI 3.1 document. */
export interface OpenApiDocumentLike {
  paths?: Record<string, unknown>;
  components?: object;
}

/** An answer as a test received it. */
export interface ReceivedAnswer {
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /** The body's text; empty for none (and for HEAD). */
  text: string;
}

/** Checks one answer; throws, saying what differs, when the document does not allow it. */
export type ResponseConformance = (method: string, path: string, answer: ReceivedAnswer) => void;

interface DocumentedResponse {
  content?: Record<string, { schema?: unknown }>;
}

interface DocumentedOperation {
  pattern: RegExp;
  method: string;
  template: string;
  responses: Record<string, DocumentedResponse>;
}

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

/** The root element an XML body of this schema has, when the schema (or the one it refers to) names it. */
function xmlRootOf(schema: unknown, components: object): string | undefined {
  const reference = (schema as { $ref?: string }).$ref;
  const resolved = reference?.startsWith('#/components/schemas/')
    ? (components as { schemas?: Record<string, unknown> }).schemas?.[reference.slice('#/components/schemas/'.length)]
    : schema;
  return (resolved as { xml?: { name?: string } } | undefined)?.xml?.name;
}

/**
 * The answers' check against the service's OpenAPI document: status, Content-Type and, for JSON,
 * the body against the schema of that status (for XML, its root element). Answers on paths the document does not have (an
 * unknown path's 404, a wrong method's 405) must still be the one error shape. `routedPath` reads a
 * request's path as the service routes it.
 */
export function createResponseConformance(document: OpenApiDocumentLike, options: { routedPath?: (path: string) => string } = {}): ResponseConformance {
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
  const routed = options.routedPath ?? ((path: string) => path);

  return (method, path, answer) => {
    const asked = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const pathOnly = routed(path.split('?')[0] ?? path);
    const operation = operations.find((candidate) => candidate.method === asked && candidate.pattern.test(pathOnly));
    const where = `${method} ${pathOnly} → ${answer.status}`;
    const type = answer.contentType?.split(';')[0]?.trim().toLowerCase();
    let content: Record<string, { schema?: unknown }> | undefined;
    if (operation) {
      const documented = operation.responses[String(answer.status)];
      if (!documented) throw new Error(`${where}: the document lists no ${answer.status} for ${asked} ${operation.template}`);
      content = documented.content;
    } else {
      if (answer.status < 400) throw new Error(`${where}: the document has no such operation`);
      content = { 'application/json': { schema: errorSchema }, 'application/xml': { schema: errorSchema } };
    }
    if (answer.text === '') return;
    if (!content) throw new Error(`${where}: the document says this answer has no body, it had ${type}`);
    const media = type === undefined ? undefined : (content[type] ?? content['*/*']);
    if (!media) throw new Error(`${where}: Content-Type ${type} is not one of ${Object.keys(content).join(', ')}`);
    if (media.schema === undefined) return;
    if (type === 'application/xml') {
      // XML bodies are checked for their root element, the one the schema names (`xml.name`).
      const root = xmlRootOf(media.schema, components);
      const found = /^(?:\uFEFF)?\s*(?:<\?xml[^>]*\?>\s*)?<([A-Za-z_][\w.-]*)/.exec(answer.text)?.[1];
      if (root !== undefined && found !== root) throw new Error(`${where}: the XML root is <${found}>, the document says <${root}>`);
      return;
    }
    if (type !== 'application/json') return;
    const validate = validatorFor(media.schema);
    if (!validate(JSON.parse(answer.text)))
      throw new Error(`${where}: the body does not match the document: ${ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 500)}`);
  };
}
