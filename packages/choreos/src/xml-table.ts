import { InvalidStepInputError } from './step-errors.ts';
import { nodeText, selectXml, type XmlNode } from './xml-query.ts';

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
  const selected = selectXml(xml, path.trim() === '' ? DEFAULT_ROW_PATH : path);
  if (!Array.isArray(selected)) throw new InvalidStepInputError(`the path ${JSON.stringify(path)} selects a value, not rows`);
  return tableFromNodes(selected);
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
