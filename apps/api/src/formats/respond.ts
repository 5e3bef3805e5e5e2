import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env.ts';
import { buildXml, type XmlTree } from './xml.ts';

/** A response body in both formats: the JSON value, and the XML root element with its tree. */
export interface Representation {
  json: unknown;
  xml: { root: string; tree: XmlTree };
}

export function respond(c: Context<AppEnv>, status: ContentfulStatusCode, body: Representation, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (c.get('format') === 'xml') {
    c.header('Content-Type', 'application/xml; charset=UTF-8');
    return c.body(buildXml(body.xml.root, body.xml.tree), status);
  }
  return c.json(body.json, status);
}
