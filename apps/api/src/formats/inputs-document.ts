import { xmlRootElement } from './document-body.ts';
import type { XmlNode } from './xml.ts';

/** The one `<inputs>` element of an XML run or preset body; a 400 saying why when there is not exactly one. */
export function parseInputsDocument(body: string): XmlNode {
  return xmlRootElement(body, 'inputs');
}
