import { ApiError } from '../errors/api-error.ts';
import { bodyFormat } from './negotiate.ts';
import { parseXml, XmlInputError, type XmlNode } from './xml.ts';

/** The one `<root>` element of an XML body; a 400 saying why when there is not exactly one. */
export function xmlRootElement(body: string, root: string): XmlNode {
  let document: Record<string, XmlNode[]>;
  try {
    document = parseXml(body);
  } catch (error) {
    if (error instanceof XmlInputError) throw new ApiError('BAD_REQUEST', error.message);
    throw error;
  }
  const element = document[root]?.[0];
  if (Object.keys(document).length !== 1 || element === undefined || document[root]?.length !== 1) {
    throw new ApiError('BAD_REQUEST', `The XML body must have one root element <${root}>.`);
  }
  return element;
}

/**
 * A request document in either format: JSON parsed as it is, XML as its one `<root>` element, for
 * the caller to read into the JSON's shape. 415 for another content type, 400 for one that does
 * not parse.
 */
export function readDocumentBody(body: string, contentType: string | undefined, root: string): { json: unknown } | { xml: XmlNode } {
  const format = bodyFormat(contentType);
  if (format === undefined) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (format === 'xml') return { xml: xmlRootElement(body, root) };
  try {
    return { json: JSON.parse(body) as unknown };
  } catch {
    throw new ApiError('BAD_REQUEST', 'The body is not valid JSON.');
  }
}
