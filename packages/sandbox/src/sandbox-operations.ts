import {
  csvToJson,
  DATA_OPERATIONS,
  findJsonProperty,
  findSubstring,
  jsonToXml,
  parseJsonText,
  type QueryAnswer,
  queryJson,
  queryResultText,
  queryXml,
  regexMatch,
  titleCase,
  validateXmlDocument,
  xmlToJson,
} from '@ces/formats';
import { createQuickJsRunner } from './quickjs-runner.ts';
import type { CodeRequest } from './quickjs-runner.ts';
import { InvalidStepInputError } from '@ces/language';

export interface RegexReplaceRequest {
  text: string;
  pattern: string;
  flags: string;
  replacement: string;
}

export interface TitleCaseRequest {
  text: string;
}

export interface JsonQueryRequest {
  /** JSON text. */
  json: string;
  path: string;
  /** The message when `json` is not JSON; without it, the parser's own. */
  notJson?: string;
}

export interface JsonFormatRequest {
  json: string;
  /** Spaces per level; 0 writes it compact. */
  indent: number;
}

export interface XmlQueryRequest {
  xml: string;
  expression: string;
}

/** One per process: its WebAssembly module stays loaded between runs. */
const quickJs = createQuickJsRunner();

/** What a process does before it says it is ready, so that no operation's time limit pays for it. */
export async function prepareSandboxOperations(): Promise<void> {
  await quickJs.load();
}

/**
 * The operations a sandbox process runs: pure functions of tenant input whose time or memory the
 * input alone can make unbounded (a backtracking pattern, `$..*..*` on a deep document, an XPath
 * that compares every node with every other, indentation that grows with the square of the depth),
 * or large (converting megabytes of XML or CSV takes seconds, title-casing them half a second),
 * and tenants' JavaScript (in QuickJS, whose built-ins can run on for seconds past its interrupt).
 */
export const SANDBOX_OPERATIONS = {
  'regex-replace': (request: RegexReplaceRequest): string => request.text.replace(new RegExp(request.pattern, request.flags), request.replacement),
  'json-query': (request: JsonQueryRequest): QueryAnswer => {
    let json: unknown;
    if (request.notJson === undefined) json = parseJsonText(request.json);
    else {
      try {
        json = JSON.parse(request.json);
      } catch {
        throw new InvalidStepInputError(request.notJson);
      }
    }
    return answer(queryJson(json, request.path));
  },
  'xml-query': (request: XmlQueryRequest): QueryAnswer => answer(queryXml(request.xml, request.expression)),
  'json-format': (request: JsonFormatRequest): string => JSON.stringify(parseJsonText(request.json), null, request.indent === 0 ? undefined : request.indent),
  'xml-to-json': xmlToJson,
  'json-to-xml': jsonToXml,
  'csv-to-json': csvToJson,
  'title-case': (request: TitleCaseRequest): string => titleCase(request.text),
  'regex-match': regexMatch,
  'find-substring': findSubstring,
  'json-property': findJsonProperty,
  'xml-validate': validateXmlDocument,
  // QuickJS stops the code at its own limits with a clear message; the process's kill is the backstop.
  'run-code': (request: CodeRequest): Promise<string> => quickJs.run(request),
  ...DATA_OPERATIONS,
};

export type SandboxOperation = keyof typeof SANDBOX_OPERATIONS;

/** The length a result counts for against the sandbox's limit. */
export function resultLength(result: string | QueryAnswer | number[]): number {
  // Positions: their JSON text, as the result will be kept.
  if (Array.isArray(result)) return JSON.stringify(result).length;
  return typeof result === 'string' ? result.length : result.result.length;
}

function answer(matches: unknown[]): QueryAnswer {
  return { result: queryResultText(matches), count: matches.length };
}
