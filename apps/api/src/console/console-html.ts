import type { HtmlEscapedString } from 'hono/utils/html';

/** What `html` from hono/html returns: markup whose interpolated strings have been escaped. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
