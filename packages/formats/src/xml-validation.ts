import type * as XmllintWasm from 'xmllint-wasm';
import type { XMLValidationError } from 'xmllint-wasm';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError, shorten } from '@ces/language';

const xmllint = libraryOnFirstUse<typeof XmllintWasm>('xmllint-wasm');

export interface XmlValidationRequest {
  xml: string;
  /** An XML Schema; empty to check only that the document is well-formed. */
  xsd: string;
}

/**
 * libxml2's memory, in MiB: WebAssembly memory is outside the V8 heap that the sandbox limits.
 * The largest document of the tiniest elements (5 MiB of `<a/>`) needs about half of it.
 */
export const XML_VALIDATION_MEMORY_MB = 256;
/** The first problems are the useful ones; a broken document can yield one per line. */
const MAX_REPORTED_ERRORS = 10;
const DOCUMENT = 'document.xml';
const SCHEMA = 'schema.xsd';
/** xmllint's exit status when the schema itself could not be read or compiled. */
const SCHEMA_FAILED = 5;
/** xmllint's exit status when libxml2 ran out of memory. */
const OUT_OF_MEMORY = 9;

/**
 * Checks that `xml` is well-formed and, with `xsd`, valid against that schema, with libxml2 (the
 * parser of xmllint) compiled to WebAssembly: its file system is in memory, holding only these
 * two files, so an `xs:include` or an external entity can reach neither the host's files nor the
 * network. Entities are not substituted. Answers the empty string when the document is valid,
 * otherwise what is wrong, line by line. A schema that cannot be compiled fails the step instead.
 */
export async function validateXmlDocument(request: XmlValidationRequest, memoryMb = XML_VALIDATION_MEMORY_MB): Promise<string> {
  const useSchema = request.xsd.trim() !== '';
  const { memoryPages, validateXML } = xmllint();
  let answer: Awaited<ReturnType<typeof validateXML>>;
  try {
    answer = await validateXML({
      xml: [{ fileName: DOCUMENT, contents: request.xml }],
      schema: useSchema ? [{ fileName: SCHEMA, contents: request.xsd }] : [],
      maxMemoryPages: memoryMb * memoryPages.MiB,
    });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: string };
    if (code === SCHEMA_FAILED) throw new InvalidStepInputError(`the XSD is not valid: ${describeSchemaFailure(message ?? '')}`);
    if (code === OUT_OF_MEMORY) throw new InvalidStepInputError(`validating the XML needed more than ${memoryMb} MiB`);
    throw new Error(`the XML validator failed: ${shorten(message ?? String(error), 200)}`);
  }
  if (answer.valid) return '';
  const problems = answer.errors.filter((error) => error.loc !== null).map(describeProblem);
  if (problems.length === 0) return 'the document is not valid';
  const shown = problems.slice(0, MAX_REPORTED_ERRORS);
  if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
  return shown.join('\n');
}

function describeProblem(error: XMLValidationError): string {
  return `line ${error.loc?.lineNumber}: ${error.message}`;
}

/** xmllint's report names the in-memory file; the caller knows it as "the XSD". */
function describeSchemaFailure(report: string): string {
  const lines = report
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('WXS schema'))
    .map((line) => line.replace(new RegExp(`^${SCHEMA.replace('.', '\\.')}:(\\d+):`), 'line $1:'));
  return shorten(lines.join('; ') || 'it could not be compiled', 600);
}
