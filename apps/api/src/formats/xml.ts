import { XMLBuilder, XMLParser } from 'fast-xml-parser';

export class XmlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlInputError';
  }
}

export const XML_LIMITS = { maxDepth: 32, maxElements: 10_000 } as const;

/** An XML element as the parser gives it: text, or child elements by name (repeated → array). */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Predefined entities and character references (`&#233;`) only: a DOCTYPE, and so any entity
  // definition, is refused before parsing. `htmlEntities: false` would leave character references
  // undecoded; `true` decodes them and also accepts HTML's names such as `&nbsp;`, a harmless leniency.
  processEntities: true,
  htmlEntities: true,
  isArray: () => true,
});

/**
 * Parses untrusted XML. DTDs (and so entity definitions and expansion bombs) are refused,
 * nesting depth and element count are bounded before the parser sees the text.
 */
export function parseXml(text: string): Record<string, XmlNode[]> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlInputError('XML with a DOCTYPE or entity declarations is not accepted');
  checkCharacters(text);
  checkShape(text);
  let parsed: unknown;
  try {
    parsed = parser.parse(text, true);
  } catch (error) {
    // The parser's message may quote the body (a tag name of any length): its start is enough.
    throw new XmlInputError(`XML does not parse: ${shorten((error as Error).message, MAX_MESSAGE_QUOTE)}`);
  }
  return parsed as Record<string, XmlNode[]>;
}

const MAX_MESSAGE_QUOTE = 200;
/** Characters XML 1.0 does not allow, written as they are (lone surrogates cannot come from UTF-8). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const CHARACTER_REFERENCE = /&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g;

/**
 * Refuses what XML 1.0 does not allow: control characters, and references to characters that do
 * not exist or are not allowed. The parser would quietly turn `&#0;` into nothing and leave
 * `&#x110000;` as it is written, and the run would go on with a value other than the one sent.
 * (Such a text inside CDATA, a comment or a processing instruction, where it is no reference, is
 * refused too: one pass, and no client has a use for it.)
 */
function checkCharacters(text: string) {
  if (CONTROL_CHARACTER.test(text)) throw new XmlInputError('XML may not contain control characters other than tab, line feed and carriage return');
  for (const [reference, hex, decimal] of text.matchAll(CHARACTER_REFERENCE)) {
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!allowed) throw new XmlInputError(`XML refers to a character it may not contain: ${reference}`);
  }
}
/** What cannot start an element's name; the parser takes any other character as one. */
const NOT_NAME_START = /[\s/!?<>="']/;

/**
 * Counts elements and nesting before the parser sees the text, in one pass: each character is
 * looked at a bounded number of times, however the markup is broken. (A regular expression did
 * this before, and backtracked: `<a` repeated over six kilobytes held the API for twelve seconds.)
 * Comments, CDATA and processing instructions are skipped whole, so markup inside them counts for
 * nothing; a tag ends at the first `>` outside its quoted attribute values, as the parser reads it
 * (`<a x="/>">` opens an element), and any name counts, not only ASCII ones. Whatever is malformed
 * is left to the parser to refuse.
 */
function checkShape(text: string) {
  let depth = 0;
  let elements = 0;
  for (let at = text.indexOf('<'); at !== -1; ) {
    const next = text[at + 1];
    let end: number;
    if (text.startsWith('<!--', at)) end = endOf(text, '-->', at + 4);
    else if (text.startsWith('<![CDATA[', at)) end = endOf(text, ']]>', at + 9);
    else if (next === '?') end = endOf(text, '?>', at + 2);
    else {
      end = tagEnd(text, at + 1);
      if (end !== -1 && next === '/') depth -= 1;
      else if (end !== -1 && next !== undefined && !NOT_NAME_START.test(next)) {
        elements += 1;
        if (elements > XML_LIMITS.maxElements) throw new XmlInputError(`XML has more than ${XML_LIMITS.maxElements} elements`);
        if (text[end - 1] !== '/') {
          depth += 1;
          if (depth > XML_LIMITS.maxDepth) throw new XmlInputError(`XML is nested deeper than ${XML_LIMITS.maxDepth} levels`);
        }
      }
    }
    // Unterminated: nothing after it can be markup the parser would accept.
    if (end === -1) return;
    at = text.indexOf('<', end + 1);
  }
}

/** Index of the `>` that ends a tag begun before `from`, skipping quoted attribute values, or -1. */
function tagEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === '>') return index;
    if (char === '"' || char === "'") {
      index = text.indexOf(char, index + 1);
      if (index === -1) return -1;
    }
  }
  return -1;
}

/** Index of the last character of `terminator` at or after `from`, or -1. */
function endOf(text: string, terminator: string, from: number): number {
  const found = text.indexOf(terminator, from);
  return found === -1 ? -1 : found + terminator.length - 1;
}

function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

/** The text of a leaf element (all `#text` parts joined), or undefined when it has children. */
export function xmlText(node: XmlNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  if (keys.length === 0) return '';
  if (keys.every((key) => key === '#text')) {
    const text = node['#text'];
    return Array.isArray(text) ? text.join('') : String(text);
  }
  return undefined;
}

/** Child elements of a node with a given name. */
export function xmlChildren(node: XmlNode | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  const children = node[name];
  if (children === undefined) return [];
  return Array.isArray(children) ? children : [children];
}

const builder = new XMLBuilder({
  ignoreAttributes: true,
  format: false,
  suppressEmptyNode: false,
  processEntities: true,
});

/** Characters XML 1.0 cannot carry, even escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export type XmlTree = string | number | XmlTree[] | { [name: string]: XmlTree };

function sanitize(tree: XmlTree): XmlTree {
  if (typeof tree === 'string') return tree.replace(NOT_XML_CHARACTER, '\uFFFD');
  if (typeof tree === 'number') return String(tree);
  if (Array.isArray(tree)) return tree.map(sanitize);
  const result: Record<string, XmlTree> = {};
  for (const [key, value] of Object.entries(tree)) result[key] = sanitize(value);
  return result;
}

/** Serialises a tree under one root element; arrays repeat their element. */
export function buildXml(root: string, tree: XmlTree): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [root]: sanitize(tree) }) as string}`;
}
