export type Format = 'json' | 'xml';

const MEDIA_TYPES: Record<string, Format> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

/**
 * Picks the response format from an Accept header, honouring q-values. No header, or one that
 * accepts anything, means JSON; undefined means nothing acceptable can be produced.
 */
export function negotiateFormat(accept: string | undefined): Format | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  let best: { format: Format; q: number; specificity: number } | undefined;
  for (const part of accept.split(',')) {
    const [rawType, ...params] = part.split(';');
    const type = rawType?.trim().toLowerCase() ?? '';
    if (!type) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q') q = Number.parseFloat(value ?? '');
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const candidates: [Format, number][] =
      type === '*/*' ? [['json', 0]] : type === 'application/*' ? [['json', 1], ['xml', 1]] : MEDIA_TYPES[type] ? [[MEDIA_TYPES[type]!, 2]] : [];
    for (const [format, specificity] of candidates) {
      if (!best || q > best.q || (q === best.q && specificity > best.specificity)) best = { format, q, specificity };
    }
  }
  return best?.format;
}

/** The format a request body declares, from its Content-Type, or undefined when unsupported. */
export function bodyFormat(contentType: string | undefined): Format | undefined {
  if (!contentType) return undefined;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return undefined;
}
