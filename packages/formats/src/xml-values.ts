import { delimitedField, writeDelimited } from './delimited-text.ts';
import { InvalidStepInputError } from '@ces/language';
import { nodeText, parseXmlDocument, selectXml, type XmlNode } from './xml-query.ts';
import { XML_ATTRIBUTE_PREFIX, XML_TEXT_KEY, xmlToOrderedNodes, xmlToValue } from './xml-safety.ts';
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
  const values = orderedValues(request.xml, name, attribute) ?? domValues(request.xml, name, attribute);
  return request.format === 'csv' ? values.map((value) => delimitedField(value, ',')).join(',') : JSON.stringify(values);
}

/** A name without a prefix also matches prefixed names with that local name. */
function nameMatches(actual: string, wanted: string): boolean {
  return actual === wanted || (!wanted.includes(':') && actual.slice(actual.indexOf(':') + 1) === wanted);
}

type OrderedNode = Record<string, unknown>;

/**
 * The values read with the streaming parser, which is some twenty times faster than the DOM on
 * large documents; undefined when a matching element holds elements, whose XML the DOM writes.
 */
function orderedValues(xml: string, name: string, attribute: boolean): string[] | undefined {
  const values: string[] = [];
  const pending: { nodes: OrderedNode[]; next: number }[] = [{ nodes: xmlToOrderedNodes(xml), next: 0 }];
  while (pending.length > 0) {
    const level = pending[pending.length - 1] as { nodes: OrderedNode[]; next: number };
    const node = level.nodes[level.next++];
    if (node === undefined) {
      pending.pop();
      continue;
    }
    const element = Object.keys(node).find((key) => key !== ':@' && key !== XML_TEXT_KEY);
    if (element === undefined) continue;
    const children = node[element] as OrderedNode[];
    if (attribute) {
      for (const [key, value] of Object.entries((node[':@'] ?? {}) as Record<string, string>)) {
        if (nameMatches(key.slice(XML_ATTRIBUTE_PREFIX.length), name)) values.push(String(value));
      }
    } else if (nameMatches(element, name)) {
      let text = '';
      for (const child of children) {
        if (!(XML_TEXT_KEY in child)) return undefined;
        text += String(child[XML_TEXT_KEY]);
      }
      values.push(text);
    }
    pending.push({ nodes: children, next: 0 });
  }
  return values;
}

function domValues(xml: string, name: string, attribute: boolean): string[] {
  const document = parseXmlDocument(xml);
  const matches = (node: { nodeName: string }) => nameMatches(node.nodeName, name);
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
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index] as XmlNode);
  }
  return values;
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
