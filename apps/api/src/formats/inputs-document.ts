import { ApiError } from '../errors/api-error.ts';
import { parseXml, XmlInputError, type XmlNode } from './xml.ts';

/** The one `<inputs>` element of an XML run or preset body; a 400 saying why when there is not exactly one. */
export function parseInputsDocument(body: string): XmlNode {
  let document: Record<string, XmlNode[]>;
  try {
    document = parseXml(body);
  } catch (error) {
    if (error instanceof XmlInputError) throw new ApiError('BAD_REQUEST', error.message);
    throw error;
  }
  const root = document.inputs?.[0];
  if (Object.keys(document).length !== 1 || root === undefined || document.inputs?.length !== 1) {
    throw new ApiError('BAD_REQUEST', 'The XML body must have one root element <inputs>.');
  }
  return root;
}
