import { InvalidStepInputError } from '@ces/language';
import { nodeText, selectXml, type XmlNode } from './xml-query.ts';
import { XML_ATTRIBUTE_PREFIX, XML_TEXT_KEY, xmlToOrderedNodes } from './xml-safety.ts';

/**
 * Tables as the original Utilities write them in XML: `<rowset><row><Name>value</Name>…</row></rowset>`,
 * one element per column, named after the column.
 */

const ELEMENT_NODE = 1;
/** The path to the rows when the caller gives none. */
export const DEFAULT_ROW_PATH = '/rowset/row';

/** A header row and rows of the same width. */
export interface Table {
  readonly columns: string[];
  readonly rows: string[][];
}

/**
 * The rows `path` selects in `xml`, as a table: a column for each attribute and child element
 * name, in the order first met; a name repeated in one row keeps its first value; an element
 * with children of its own gives its XML.
 */
export function tableFromXml(xml: string, path: string): Table {
  const rowPath = path.trim() === '' ? DEFAULT_ROW_PATH : path.trim();
  if (SIMPLE_PATH.test(rowPath)) {
    const table = simpleTable(xml, rowPath.split('/').slice(1));
    if (table !== undefined) return table;
  }
  const selected = selectXml(xml, rowPath);
  if (!Array.isArray(selected)) throw new InvalidStepInputError(`the path ${JSON.stringify(path)} selects a value, not rows`);
  return tableFromNodes(selected);
}

/** An absolute path of element names only, such as /rowset/row: no XPath engine needed to follow it. */
const SIMPLE_PATH = /^(\/[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?)+$/;
const ATTRIBUTES_KEY = ':@';
type OrderedNode = Record<string, unknown>;

/**
 * The same table as tableFromNodes, read with the streaming parser rather than a DOM: the DOM
 * parser takes some 20 µs an element (a regular expression compiled per end tag), so the 5 MiB of
 * a long table would take longer than a conversion may. Undefined when a column holds elements of
 * its own, whose XML the DOM path writes.
 */
function simpleTable(xml: string, steps: readonly string[]): Table | undefined {
  let level: OrderedNode[] = xmlToOrderedNodes(xml);
  let elements: OrderedNode[] = [];
  for (const step of steps) {
    elements = level.filter((node) => elementName(node) === step);
    level = elements.flatMap((node) => node[step] as OrderedNode[]);
  }
  const columnIndex = new Map<string, number>();
  const records: Map<string, string>[] = [];
  for (const element of elements) {
    const name = elementName(element) as string;
    const record = new Map<string, string>();
    const attributes = (element[ATTRIBUTES_KEY] ?? {}) as Record<string, string>;
    for (const [key, value] of Object.entries(attributes)) {
      const attribute = key.slice(XML_ATTRIBUTE_PREFIX.length);
      if (!record.has(attribute)) record.set(attribute, String(value));
    }
    const children = element[name] as OrderedNode[];
    for (const child of children) {
      const childName = elementName(child);
      if (childName === undefined || record.has(childName)) continue;
      const text = textOnly(child[childName] as OrderedNode[]);
      if (text === undefined) return undefined;
      record.set(childName, text);
    }
    if (record.size === 0) {
      const text = textOnly(children);
      if (text === undefined) return undefined;
      record.set(name, text);
    }
    for (const column of record.keys()) if (!columnIndex.has(column)) columnIndex.set(column, columnIndex.size);
    records.push(record);
  }
  const columns = [...columnIndex.keys()];
  return { columns, rows: records.map((record) => columns.map((column) => record.get(column) ?? '')) };
}

function elementName(node: OrderedNode): string | undefined {
  for (const key of Object.keys(node)) if (key !== ATTRIBUTES_KEY && key !== XML_TEXT_KEY) return key;
  return undefined;
}

/** The text of an element's children, or undefined when one of them is an element. */
function textOnly(children: readonly OrderedNode[]): string | undefined {
  let text = '';
  for (const child of children) {
    if (elementName(child) !== undefined) return undefined;
    text += String(child[XML_TEXT_KEY] ?? '');
  }
  return text;
}

export function tableFromNodes(nodes: readonly XmlNode[]): Table {
  const columnIndex = new Map<string, number>();
  const records: Map<string, string>[] = [];
  for (const node of nodes) {
    const record = new Map<string, string>();
    if (node.nodeType === ELEMENT_NODE) {
      const element = node as import('@xmldom/xmldom').Element;
      for (let index = 0; index < element.attributes.length; index++) {
        const attribute = element.attributes.item(index);
        if (attribute !== null && !record.has(attribute.name)) record.set(attribute.name, attribute.value);
      }
      for (let child = element.firstChild; child !== null; child = child.nextSibling) {
        if (child.nodeType === ELEMENT_NODE && !record.has(child.nodeName)) record.set(child.nodeName, nodeText(child));
      }
      if (record.size === 0) record.set(element.nodeName, nodeText(element));
    } else {
      record.set(node.nodeName, nodeText(node));
    }
    for (const name of record.keys()) if (!columnIndex.has(name)) columnIndex.set(name, columnIndex.size);
    records.push(record);
  }
  const columns = [...columnIndex.keys()];
  return { columns, rows: records.map((record) => columns.map((name) => record.get(name) ?? '')) };
}

/** A header row and data rows as `<rowset><row>…</row></rowset>`, columns named by `xmlName`. */
export function tableToXml(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const names = uniqueXmlNames(header);
  const width = Math.max(names.length, ...rows.map((row) => row.length));
  for (let index = names.length; index < width; index++) names.push(`column${index + 1}`);
  const parts = ['<rowset>'];
  for (const row of rows) {
    parts.push('<row>');
    names.forEach((name, index) => {
      const value = row[index] ?? '';
      parts.push(value === '' ? `<${name}/>` : `<${name}>${xmlText(value)}</${name}>`);
    });
    parts.push('</row>');
  }
  parts.push('</rowset>');
  return parts.join('');
}

/**
 * A column heading as an element name: characters an XML name cannot hold become "_", a name
 * that cannot start as it does gets a leading "_", an empty one is `column<n>`; duplicates get
 * "_2", "_3"…
 */
export function uniqueXmlNames(header: readonly string[]): string[] {
  const seen = new Set<string>();
  return header.map((heading, index) => {
    let name = heading.trim().replace(/[^\p{L}\p{N}._-]/gu, '_');
    if (name === '') name = `column${index + 1}`;
    else if (!/^[\p{L}_]/u.test(name) || /^xml/i.test(name)) name = `_${name}`;
    let unique = name;
    for (let suffix = 2; seen.has(unique); suffix++) unique = `${name}_${suffix}`;
    seen.add(unique);
    return unique;
  });
}

/** Escapes text for XML, dropping the control characters XML 1.0 cannot carry at all. */
export function xmlText(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML 1.0 cannot carry.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
  );
}
