import { ApiError } from '../errors/api-error.ts';
import { readDocumentBody } from '../formats/document-body.ts';
import { type XmlNode, xmlChildren, xmlText } from '../formats/xml.ts';

/**
 * Reads the body of a schedule request (the schedule, a pause's note, a backfill's range) into
 * the plain object its JSON would be, so one check says what is wrong with either format. XML is
 * `<root><field>text</field>…</root>`, with `<inputs><input><name/><value/></input></inputs>`;
 * numbers and booleans are read from their text, so `<paused>yes</paused>` reaches the check as
 * the text it is and is refused there at its pointer.
 */
export function readScheduleBody(body: string, contentType: string | undefined, root: string, options: { optional?: boolean } = {}): unknown {
  if (body.trim() === '') {
    if (options.optional) return {};
    throw new ApiError('BAD_REQUEST', `This request needs a body: a JSON object or an XML <${root}>.`);
  }
  const read = readDocumentBody(body, contentType, root);
  if ('json' in read) return read.json;
  return fromXml(read.xml);
}

const NUMBER = /^-?[0-9]+$/;

function scalar(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return NUMBER.test(trimmed) ? Number(trimmed) : text;
}

function fromXml(element: XmlNode): Record<string, unknown> {
  if (typeof element === 'string') return {};
  const document: Record<string, unknown> = {};
  for (const field of Object.keys(element)) {
    if (field === '#text') continue;
    if (field === 'inputs') {
      document.inputs = xmlChildren(xmlChildren(element, 'inputs')[0], 'input').map((input) => ({
        name: xmlText(xmlChildren(input, 'name')[0]),
        value: xmlText(xmlChildren(input, 'value')[0]),
      }));
      continue;
    }
    const text = xmlText(xmlChildren(element, field)[0]);
    // Texts stay texts where the document wants one; the check refuses a number where a text belongs.
    document[field] = text === undefined ? {} : ['catchupWindowSeconds', 'paused', 'from', 'to'].includes(field) ? scalar(text) : text;
  }
  return document;
}
