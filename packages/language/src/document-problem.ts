/** One thing wrong with a document: where (an RFC 6901 JSON pointer into it) and what. */
export interface DocumentProblem {
  pointer: string;
  message: string;
}

/** The JSON pointer of a path into a document (zod's issue paths, walkDefinition's segments). */
export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

const PATH = String.raw`[A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*`;
/** `<path>[ (<step id>)][ <path within the step>]: <message>`, as parseDefinition writes its problems. */
// The step id between parentheses may be one the schema refused, in any characters but those.
const PROBLEM = new RegExp(String.raw`^(${PATH})(?: \([^()]*\))?(?: (${PATH}))?: ([\s\S]+)$`);

/** A problem as parseDefinition words it, with its place as a pointer; a problem it cannot place is the document's. */
export function locateProblem(problem: string): DocumentProblem {
  const match = PROBLEM.exec(problem);
  if (!match) return { pointer: '', message: problem };
  const [, place = '', within, message = ''] = match;
  const segments = (path: string) => [...path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map(([, index, name]) => index ?? name ?? '');
  return { pointer: toPointer([...segments(place), ...(within ? segments(within) : [])]), message };
}
