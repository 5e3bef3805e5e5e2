import type * as FastXmlParser from 'fast-xml-parser';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError, shorten } from '@ces/language';

/** Larger XML documents are refused before parsing. */
export const MAX_XML_LENGTH = 5 * 1024 * 1024;
const MAX_DEPTH = 100;

/**
 * Every XML parser in this package refuses DOCTYPE outright: with no DTD there are no custom
 * entities, so neither entity expansion bombs nor external entities (XXE) are possible.
 */
export function assertSafeXml(xml: string): void {
  if (xml.length > MAX_XML_LENGTH) {
    throw new InvalidStepInputError(`XML is too large: ${xml.length} characters, at most ${MAX_XML_LENGTH} are accepted`);
  }
  if (/<!DOCTYPE/i.test(xml)) throw new InvalidStepInputError('XML with a DOCTYPE is not accepted');
  if (xml.trim() === '') throw new InvalidStepInputError('XML is empty');
}

/** The five predefined XML entities and character references; nothing else exists without a DTD. */
export function decodeXmlReferences(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/g, (entity, body: string) => {
    switch (body) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : entity;
  });
}

export const XML_ATTRIBUTE_PREFIX = '@';
export const XML_TEXT_KEY = '#text';

const PARSER_OPTIONS = {
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: XML_ATTRIBUTE_PREFIX,
  textNodeName: XML_TEXT_KEY,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_DEPTH,
  tagValueProcessor: (_name: string, value: string) => decodeXmlReferences(value),
  attributeValueProcessor: (_name: string, value: string) => decodeXmlReferences(value),
};
const fastXmlParser = libraryOnFirstUse<typeof FastXmlParser>('fast-xml-parser');
let parsers: { plain: FastXmlParser.XMLParser; ordered: FastXmlParser.XMLParser } | undefined;
function xmlParsers(): { plain: FastXmlParser.XMLParser; ordered: FastXmlParser.XMLParser } {
  const { XMLParser } = fastXmlParser();
  parsers ??= {
    plain: new XMLParser(PARSER_OPTIONS),
    /** Document order and text as written (whitespace kept), for readers that walk the document. */
    ordered: new XMLParser({ ...PARSER_OPTIONS, preserveOrder: true, trimValues: false }),
  };
  return parsers;
}

/** XML text to a JSON-ready value: attributes as "@name", mixed text as "#text", values kept as strings. */
export function xmlToValue(xml: string): unknown {
  assertSafeXml(xml);
  try {
    return xmlParsers().plain.parse(xml, true);
  } catch (error) {
    throw new InvalidStepInputError(`XML is not valid: ${describeXmlError(error)}`);
  }
}

/**
 * XML text in document order: a list of nodes, each `{ [name]: children, ":@"?: { "@attr": value } }`
 * or `{ "#text": text }`, with the same refusals and decoding as xmlToValue.
 */
export function xmlToOrderedNodes(xml: string): Record<string, unknown>[] {
  assertSafeXml(xml);
  try {
    return xmlParsers().ordered.parse(xml, true) as Record<string, unknown>[];
  } catch (error) {
    throw new InvalidStepInputError(`XML is not valid: ${describeXmlError(error)}`);
  }
}

/** The parser quotes the offending text, which may be most of the document: 200 characters of it. */
function describeXmlError(error: unknown): string {
  return shorten(rawXmlError(error), 200);
}

function rawXmlError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error !== null && typeof error === 'object' && 'err' in error) {
    const detail = (error as { err: { msg?: string; line?: number; col?: number } }).err;
    return `${detail.msg ?? 'parse error'}${detail.line === undefined ? '' : ` (line ${detail.line}, column ${detail.col ?? '?'})`}`;
  }
  return String(error);
}

export function valueToXml(value: unknown, pretty: boolean): string {
  const builder = new (fastXmlParser().XMLBuilder)({
    ignoreAttributes: false,
    attributeNamePrefix: XML_ATTRIBUTE_PREFIX,
    textNodeName: XML_TEXT_KEY,
    format: pretty,
    suppressEmptyNode: true,
    processEntities: true,
  });
  try {
    return builder.build(value) as string;
  } catch (error) {
    // The builder's own refusals (nesting past its limit) are about the input, not worth a retry.
    throw new InvalidStepInputError(`the XML cannot be written: ${describeXmlError(error)}`);
  }
}
