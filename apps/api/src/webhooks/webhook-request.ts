import { isValidChoreoPattern } from '@ces/accounts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookSpec } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import { readDocumentBody } from '../formats/document-body.ts';
import { type XmlNode, xmlChildren, xmlText } from '../formats/xml.ts';
import { httpsUrlProblem } from './https-url.ts';

/** A problem in a webhook document, at an RFC 6901 pointer into it ("" for the document itself). */
export interface WebhookProblem {
  pointer: string;
  message: string;
}

export type CheckedWebhook = { ok: true; spec: WebhookSpec } | { ok: false; problems: WebhookProblem[] };

const KNOWN_FIELDS = new Set(['url', 'events', 'choreos']);
const MAX_PATTERNS = 100;

/**
 * Checks the document of `PUT /webhooks/<name>` (JSON, or XML read into the same shape) and says
 * every problem at once, each at its pointer.
 */
export function checkWebhookDocument(document: unknown): CheckedWebhook {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return { ok: false, problems: [{ pointer: '', message: 'must be an object such as {"url": "https://…", "events": ["execution.ended"]}' }] };
  }
  const given = document as Record<string, unknown>;
  const problems: WebhookProblem[] = [];
  const problem = (pointer: string, message: string) => problems.push({ pointer, message });
  for (const field of Object.keys(given))
    if (!KNOWN_FIELDS.has(field)) problem(`/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`, 'is not a field of a webhook');
  const urlProblem = httpsUrlProblem(given.url);
  if (urlProblem) problem('/url', urlProblem);
  const { events, choreos } = given;
  if (!Array.isArray(events) || events.length === 0) problem('/events', `must list one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  else
    for (const [index, event] of events.entries())
      if (!WEBHOOK_EVENT_TYPES.includes(event as WebhookEventType)) problem(`/events/${index}`, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  if (choreos !== undefined) {
    if (!Array.isArray(choreos) || choreos.length > MAX_PATTERNS) problem('/choreos', `must be an array of at most ${MAX_PATTERNS} Choreo patterns`);
    else
      for (const [index, pattern] of choreos.entries())
        if (typeof pattern !== 'string' || !isValidChoreoPattern(pattern))
          problem(`/choreos/${index}`, 'must be a Choreo pattern such as /Library/** or /Mine/Report');
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    spec: {
      url: given.url as string,
      events: events as WebhookEventType[],
      ...(Array.isArray(choreos) && choreos.length > 0 ? { choreos: choreos as string[] } : {}),
    },
  };
}

/**
 * The body of `PUT /webhooks/<name>` read into the document's shape: JSON as it is, XML
 * `<webhook><url/><events><event/>…</events><choreos><choreo/>…</choreos></webhook>`.
 */
export function readWebhookDocument(body: string, contentType: string | undefined): unknown {
  if (body.trim() === '') throw new ApiError('BAD_REQUEST', 'A webhook needs a body: {"url": "https://…", "events": ["execution.ended"]}.');
  const read = readDocumentBody(body, contentType, 'webhook');
  if ('json' in read) return read.json;
  const root = read.xml;
  const texts = (node: XmlNode | undefined, child: string) => xmlChildren(node, child).map((item) => xmlText(item) ?? '');
  const [url] = texts(root, 'url');
  const list = (outer: string, inner: string) => {
    const [holder] = xmlChildren(root, outer);
    return holder === undefined ? undefined : texts(holder, inner);
  };
  const events = list('events', 'event');
  const choreos = list('choreos', 'choreo');
  return { ...(url !== undefined ? { url } : {}), ...(events !== undefined ? { events } : {}), ...(choreos !== undefined ? { choreos } : {}) };
}
