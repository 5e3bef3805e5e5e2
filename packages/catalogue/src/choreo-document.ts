import { CHOREO_ID_SEGMENT, validEntry, type ValidCatalogueEntry } from './catalogue.ts';
import { type DocumentProblem, parseDefinition, type StepLibrary, toPointer } from '@ces/language';

/**
 * Bounds on a Choreo an account writes through the API. The catalogue's files are the operator's
 * and bounded only by their size; a document sent by a tenant is also bounded in what it makes
 * every later run walk through.
 */
export interface ChoreoDocumentLimits {
  /** UTF-8 bytes of the document as sent. */
  maxBytes: number;
  /** Steps and blocks (every object with an `id` in an array), at any depth. */
  maxSteps: number;
  /** Levels of JSON objects and arrays, the document itself being the first. */
  maxDepth: number;
}

export const DEFAULT_CHOREO_DOCUMENT_LIMITS: ChoreoDocumentLimits = { maxBytes: 256 * 1024, maxSteps: 200, maxDepth: 32 };

export type CheckDocumentResult = { ok: true; entry: ValidCatalogueEntry } | { ok: false; tooLarge: boolean; problems: DocumentProblem[] };

/** A Choreo id (with its leading slash) whose every segment follows the catalogue's rules. */
export function isValidChoreoId(id: string): boolean {
  const segments = id.split('/');
  return segments[0] === '' && segments.length > 1 && segments.slice(1).every((segment) => CHOREO_ID_SEGMENT.test(segment));
}

/**
 * Checks a document as the catalogue checks its files (parseDefinition, so every construct of the
 * language is judged the same way wherever it is written), within `limits`, and answers its entry.
 */
export function checkChoreoDocument(id: string, text: string, steps: StepLibrary, limits: ChoreoDocumentLimits): CheckDocumentResult {
  const refuse = (problems: DocumentProblem[], tooLarge = false): CheckDocumentResult => ({ ok: false, tooLarge, problems });
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) return refuse([{ pointer: '', message: `the document is ${bytes} bytes, more than ${limits.maxBytes}` }], true);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return refuse([{ pointer: '', message: `the document is not valid JSON: ${(error as Error).message}` }]);
  }
  const shape = measure(raw);
  const over: DocumentProblem[] = [];
  if (shape.depth > limits.maxDepth) over.push({ pointer: shape.deepest, message: `the document nests ${shape.depth} levels, more than ${limits.maxDepth}` });
  if (shape.steps > limits.maxSteps)
    over.push({ pointer: '/steps', message: `the document has ${shape.steps} steps and blocks, more than ${limits.maxSteps}` });
  if (over.length > 0) return refuse(over);

  const parsed = parseDefinition(raw, steps);
  if (!parsed.ok) return refuse(parsed.located);
  return { ok: true, entry: validEntry(id, '', parsed.definition, steps) };
}

function measure(raw: unknown): { depth: number; deepest: string; steps: number } {
  let depth = 0;
  let deepest = '';
  let steps = 0;
  const visit = (value: unknown, level: number, path: readonly PropertyKey[], inArray: boolean) => {
    if (value === null || typeof value !== 'object') return;
    if (level > depth) {
      depth = level;
      deepest = toPointer(path);
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, level + 1, [...path, index], true);
      });
      return;
    }
    if (inArray && typeof (value as Record<string, unknown>).id === 'string') steps += 1;
    for (const [key, item] of Object.entries(value)) visit(item, level + 1, [...path, key], false);
  };
  visit(raw, 1, [], false);
  return { depth, deepest, steps };
}
