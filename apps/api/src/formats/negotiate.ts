export type Format = 'json' | 'xml';

const MEDIA_TYPES: Record<string, Format> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

const FORMAT_PREFERENCE: Format[] = ['json', 'xml'];

/**
 * Picks the response format from an Accept header, as RFC 9110 §12.5.1 says: each format takes
 * the q-value of the most specific media range that matches it (so `application/json;q=0, *\/*`
 * refuses JSON but accepts XML), the highest q wins, then the more specific match, then JSON.
 * No header means JSON; undefined means nothing acceptable can be produced.
 */
export function negotiateFormat(accept: string | undefined): Format | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges: { type: string; subtype: string; q: number }[] = [];
  for (const part of accept.split(',')) {
    const [rawType, ...params] = part.split(';');
    const [type, subtype, extra] = (rawType ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype || extra !== undefined) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : Number.NaN;
    }
    if (Number.isNaN(q)) continue;
    ranges.push({ type, subtype, q });
  }
  let best: { format: Format; q: number; specificity: number } | undefined;
  for (const format of FORMAT_PREFERENCE) {
    let match: { q: number; specificity: number } | undefined;
    for (const mediaType of Object.keys(MEDIA_TYPES).filter((name) => MEDIA_TYPES[name] === format)) {
      const [type, subtype] = mediaType.split('/') as [string, string];
      for (const range of ranges) {
        const specificity =
          range.type === type && range.subtype === subtype
            ? 2
            : range.type === type && range.subtype === '*'
              ? 1
              : range.type === '*' && range.subtype === '*'
                ? 0
                : -1;
        if (specificity < 0) continue;
        if (!match || specificity > match.specificity || (specificity === match.specificity && range.q > match.q)) match = { q: range.q, specificity };
      }
    }
    if (!match || match.q <= 0) continue;
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) best = { format, ...match };
  }
  return best?.format;
}

/** The format a request body declares, from its Content-Type, or undefined when unsupported. */
export function bodyFormat(contentType: string | undefined): Format | undefined {
  if (!contentType) return undefined;
  const [mediaType = ''] = contentType.split(';');
  const type = mediaType.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return undefined;
}
