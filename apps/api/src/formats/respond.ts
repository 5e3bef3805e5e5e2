import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env.ts';
import { takeResponseHeaders } from '../middleware/response-headers.ts';
import { buildXml, type XmlTree } from './xml.ts';

/** A response body in both formats: the JSON value, and the XML root element with its tree. */
export interface Representation {
  json: unknown;
  xml: { root: string; tree: XmlTree };
  /** The JSON text, when it must be written otherwise than `JSON.stringify(json)` would. */
  jsonText?: string;
}

/**
 * The answer in the negotiated format, with the headers middleware asked for. Its headers are a
 * plain record, which @hono/node-server writes without building a web `Headers`. It is a new
 * Response, so a header set with `c.header()` before it would be lost: pass it in `headers`, or
 * add it with `addResponseHeader()`.
 */
export function respond(c: Context<AppEnv>, status: ContentfulStatusCode, body: Representation, headers: Record<string, string> = {}): Response {
  const xml = c.get('format') === 'xml';
  return new Response(xml ? buildXml(body.xml.root, body.xml.tree) : (body.jsonText ?? JSON.stringify(body.json)), {
    status,
    headers: {
      ...takeResponseHeaders(c),
      ...headers,
      'Content-Type': xml ? 'application/xml; charset=UTF-8' : 'application/json',
    },
  });
}
