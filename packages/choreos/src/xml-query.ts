import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { InvalidStepInputError } from './step-errors.ts';
import { assertSafeXml } from './xml-safety.ts';

export type XmlNode = import('@xmldom/xmldom').Node;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

export function parseXmlDocument(xml: string): import('@xmldom/xmldom').Document {
  assertSafeXml(xml);
  let problem: string | undefined;
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level === 'warning') return;
      problem ??= message;
      throw new Error(message);
    },
  });
  try {
    return parser.parseFromString(xml, 'text/xml');
  } catch (error) {
    throw new InvalidStepInputError(`XML is not valid: ${firstLine(problem ?? (error as Error).message)}`);
  }
}

/**
 * Evaluates an XPath 1.0 expression. Each selected node becomes a string: attributes and text
 * their value, elements holding only text their text, other elements their XML.
 */
export function queryXml(xml: string, expression: string): unknown[] {
  const selected = selectXml(xml, expression);
  if (!Array.isArray(selected)) return [selected];
  return selected.map((node) => nodeText(node));
}

/** What the expression selects: the nodes, or the number, string or boolean it computes. */
export function selectXml(xml: string, expression: string): XmlNode[] | string | number | boolean {
  if (expression.trim() === '') throw new InvalidStepInputError('the XPath expression is empty');
  const document = parseXmlDocument(xml);
  try {
    return xpath.select(expression, document as never) as XmlNode[] | string | number | boolean;
  } catch (error) {
    throw new InvalidStepInputError(`XPath ${JSON.stringify(expression)} is not valid: ${firstLine((error as Error).message)}`);
  }
}

export function nodeText(node: XmlNode): string {
  if (node.nodeType !== ELEMENT_NODE) return node.textContent ?? '';
  const children = Array.from({ length: node.childNodes.length }, (_, index) => node.childNodes.item(index));
  const onlyText = children.every((child) => child !== null && (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE));
  return onlyText ? (node.textContent ?? '') : new XMLSerializer().serializeToString(node);
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
