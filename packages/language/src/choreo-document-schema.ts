import { z } from 'zod';
import { choreoDefinitionSchema } from './definition.ts';

/**
 * The Choreo document as a JSON Schema (2020-12, as OpenAPI 3.1 takes it), generated from the zod
 * schema that validates documents, so that the two cannot differ. A step's shape is chosen from
 * its own fields as it is validated (a step, a loop, a branch…), which a generated schema cannot
 * say: steps are items of any shape here, and docs/choreos.md describes them.
 */
export function choreoDocumentJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(choreoDefinitionSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}
