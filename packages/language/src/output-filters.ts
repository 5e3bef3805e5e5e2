import { StepFailedError } from './step-errors.ts';

/**
 * Where the filters' queries run: a sandbox (see @ces/sandbox), since a caller chooses them. Only
 * the two queries are named here, so that the language does not depend on the sandbox.
 */
export interface FilterQueries {
  queryJson(request: { json: string; path: string; notJson?: string }): Promise<{ result: string }>;
  queryXml(request: { xml: string; expression: string }): Promise<{ result: string }>;
}

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

/** Characters the filters' results may add to the outputs in all: they are stored with the execution. */
const MAX_FILTER_RESULTS_LENGTH = 16 * 1024 * 1024;

/**
 * The outputs plus, under each filter's name, the filter's result (a single scalar as text, else
 * JSON). The queries run in `sandbox`: a caller chooses them, and they could otherwise take the
 * worker's thread for as long as they like.
 */
export async function applyOutputFilters(
  outputs: Readonly<Record<string, string>>,
  filters: readonly OutputFilter[],
  sandbox: FilterQueries,
): Promise<Record<string, string>> {
  const result: Record<string, string> = { ...outputs };
  let added = 0;
  for (const filter of filters) {
    if (!Object.hasOwn(outputs, filter.variable)) throw new OutputFilterError(filter, `there is no output "${filter.variable}"`);
    const value = outputs[filter.variable] ?? '';
    const query = () =>
      value.trimStart().startsWith('<')
        ? sandbox.queryXml({ xml: value, expression: filter.path })
        : sandbox.queryJson({ json: value, path: filter.path, notJson: `output "${filter.variable}" is neither XML nor JSON` });
    let answer: { result: string };
    try {
      // A thread that did not start in time or died is the sandbox's fault, not the filter's:
      // worth one more try on a fresh thread before the run pays for it.
      answer = await query().catch((error: unknown) => {
        if (error instanceof StepFailedError) throw error;
        return query();
      });
    } catch (error) {
      throw new OutputFilterError(filter, error instanceof StepFailedError ? error.message : 'the sandbox could not run it');
    }
    added += answer.result.length;
    if (added > MAX_FILTER_RESULTS_LENGTH) throw new OutputFilterError(filter, `the filters' results pass ${MAX_FILTER_RESULTS_LENGTH} characters in all`);
    // defineProperty, not assignment: a filter may be named "__proto__".
    Object.defineProperty(result, filter.name, { value: answer.result, enumerable: true, writable: true, configurable: true });
  }
  return result;
}
