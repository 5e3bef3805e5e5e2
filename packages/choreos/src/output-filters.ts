import { queryJson } from './json-query.ts';
import { queryResultText } from './query-result.ts';
import { StepFailedError } from './step-errors.ts';
import { queryXml } from './xml-query.ts';

export interface OutputFilter {
  /** Name of the extra output holding the result. */
  readonly name: string;
  /** XPath when the variable holds XML, JSONPath when it holds JSON. */
  readonly path: string;
  /** The output to read. */
  readonly variable: string;
}

export class OutputFilterError extends Error {
  readonly filter: OutputFilter;

  constructor(filter: OutputFilter, message: string) {
    super(`output filter "${filter.name}": ${message}`);
    this.name = 'OutputFilterError';
    this.filter = filter;
  }
}

/** The outputs plus, under each filter's name, the filter's result (a single scalar as text, else JSON). */
export function applyOutputFilters(outputs: Readonly<Record<string, string>>, filters: readonly OutputFilter[]): Record<string, string> {
  const result: Record<string, string> = { ...outputs };
  for (const filter of filters) {
    if (!Object.hasOwn(outputs, filter.variable)) throw new OutputFilterError(filter, `there is no output "${filter.variable}"`);
    const value = outputs[filter.variable] ?? '';
    let matches: unknown[];
    try {
      matches = value.trimStart().startsWith('<') ? queryXml(value, filter.path) : queryJson(parseJson(filter, value), filter.path);
    } catch (error) {
      if (error instanceof OutputFilterError) throw error;
      throw new OutputFilterError(filter, error instanceof StepFailedError ? error.message : String(error));
    }
    // defineProperty, not assignment: a filter may be named "__proto__".
    Object.defineProperty(result, filter.name, { value: queryResultText(matches), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function parseJson(filter: OutputFilter, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new OutputFilterError(filter, `output "${filter.variable}" is neither XML nor JSON`);
  }
}
