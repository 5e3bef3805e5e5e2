/**
 * The console's pages load their one script and one stylesheet from this origin and nothing from
 * any other; their live parts connect back here only. No inline script or style at all, not even an
 * attribute: the step timeline draws its bars as SVG shapes, whose sizes are attributes.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
