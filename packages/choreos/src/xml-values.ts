import { delimitedField, writeDelimited } from './delimited-text.ts';
import { InvalidStepInputError } from './step-errors.ts';
import { nodeText, parseXmlDocument, selectXml, type XmlNode } from './xml-query.ts';
import { xmlToValue } from './xml-safety.ts';
import { tableFromNodes } from './xml-table.ts';

/** The original Utilities' XML queries: their results in JSON or CSV, as the caller asks. */

export type ResponseFormat = 'json' | 'csv';
export type XPathMode = 'select' | 'recursive';

const ELEMENT_NODE = 1;

export interface XmlValuesRequest {
  xml: string;
  /** An element name, or an attribute name after "@". */
  node: string;
  format: ResponseFormat;
}

/**
 * Every value of the elements or attributes named `node`, in document order: a JSON array of
 * strings, or one CSV line. A name without a prefix also matches prefixed names with that local name.
 */
export function getValuesFromXml(request: XmlValuesRequest): string {
  const wanted = request.node.trim();
  const attribute = wanted.startsWith('@');
  const name = attribute ? wanted.slice(1) : wanted;
  if (name === '') throw new InvalidStepInputError('Node must name an element, or an attribute after "@"');
  const document = parseXmlDocument(request.xml);
  const matches = (node: { nodeName: string; localName?: string | null }) => node.nodeName === name || (!name.includes(':') && node.localName === name);
  const values: string[] = [];
  // Iterative, in document order: a deep document must not exhaust the stack.
  const pending: XmlNode[] = [document.documentElement as XmlNode];
  while (pending.length > 0) {
    const node = pending.pop() as import('@xmldom/xmldom').Element;
    if (attribute) {
      for (let index = 0; index < node.attributes.length; index++) {
        const item = node.attributes.item(index);
        if (item !== null && matches(item)) values.push(item.value);
      }
    } else if (matches(node)) values.push(nodeText(node));
    const children: XmlNode[] = [];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === ELEMENT_NODE) children.push(child);
    pending.push(...children.reverse());
  }
  return request.format === 'csv' ? values.map((value) => delimitedField(value, ',')).join(',') : JSON.stringify(values);
}

export interface XPathQueryRequest {
  xml: string;
  xpath: string;
  mode: XPathMode;
  format: ResponseFormat;
}

/**
 * Runs an XPath query. `select` keeps the first match, `recursive` every match. A match is the
 * value of an attribute, a text node or an element holding only text; an element with children
 * is an object (JSON) or a row whose columns are its attributes and child elements (CSV).
 * Expressions computing a number, string or boolean give that value.
 */
export function runXPathQuery(request: XPathQueryRequest): { result: string; count: number } {
  const selected = selectXml(request.xml, request.xpath);
  if (!Array.isArray(selected)) return { result: String(selected), count: 1 };
  const nodes = request.mode === 'select' ? selected.slice(0, 1) : selected;
  return { result: request.format === 'csv' ? nodesAsCsv(nodes) : nodesAsJson(nodes, request.mode), count: nodes.length };
}

function hasChildElements(node: XmlNode): boolean {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === ELEMENT_NODE) return true;
  return false;
}

function nodeValue(node: XmlNode): unknown {
  if (node.nodeType !== ELEMENT_NODE || !hasChildElements(node)) return nodeText(node);
  const converted = xmlToValue(nodeText(node)) as Record<string, unknown>;
  return converted[node.nodeName];
}

function nodesAsJson(nodes: readonly XmlNode[], mode: XPathMode): string {
  const values = nodes.map(nodeValue);
  if (mode === 'recursive') return JSON.stringify(values);
  const [first] = values;
  if (first === undefined) return '';
  return typeof first === 'string' ? first : JSON.stringify(first);
}

function nodesAsCsv(nodes: readonly XmlNode[]): string {
  if (nodes.every((node) => node.nodeType !== ELEMENT_NODE || !hasChildElements(node))) {
    return nodes.map((node) => delimitedField(nodeText(node), ',')).join('\n');
  }
  const table = tableFromNodes(nodes);
  return writeDelimited([table.columns, ...table.rows], ',');
}
