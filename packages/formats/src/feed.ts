import { InvalidStepInputError } from '@ces/language';
import { xmlToValue } from './xml-safety.ts';

/**
 * A public identifier's DOCTYPE with no internal subset, as RSS 0.91 feeds carry
 * (`<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://…">`): it
 * declares nothing (no parser here reads external DTDs), so it is dropped rather than refused.
 */
const EXTERNAL_DOCTYPE = /^(\s*(<\?xml[^>]*\?>)?\s*)<!DOCTYPE\s+[\w:.-]+\s+(PUBLIC\s+"[^"]*"\s+"[^"]*"|SYSTEM\s+"[^"]*")\s*>/i;

/**
 * An RSS (0.9x, 2.0), RSS 1.0 (RDF) or Atom feed as JSON, element for element, as
 * conversion.xml-to-json writes XML: the channel's and items' elements become properties,
 * repeated ones arrays, attributes "@name".
 */
export function feedToJson(request: { xml: string }): string {
  const value = xmlToValue(request.xml.replace(EXTERNAL_DOCTYPE, '$1')) as Record<string, unknown>;
  const root = Object.keys(value).find((name) => !name.startsWith('?') && !name.startsWith('#'));
  if (root === undefined || !/^(rss|feed|([\w.-]+:)?RDF)$/.test(root)) {
    throw new InvalidStepInputError(`the document is not an RSS or Atom feed (its root element is ${root === undefined ? 'missing' : `<${root}>`})`);
  }
  return JSON.stringify({ [root]: value[root] });
}
