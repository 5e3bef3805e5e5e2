/** Fixed answers of the test's local HTTP server, by request path; any other path echoes the request. */
export const testPages: Readonly<Record<string, { status: number; contentType: string; body: string }>> = {
  '/feed.rss': {
    status: 200,
    contentType: 'application/rss+xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Café news</title><item><title>First</title><link>https://example.com/1</link></item><item><title>Second &amp; last</title><link>https://example.com/2</link></item></channel></rss>',
  },
  '/page.html': { status: 200, contentType: 'text/html', body: '<!DOCTYPE html><html><body>not a feed</body></html>' },
  '/gone.rss': { status: 404, contentType: 'text/plain', body: 'no such feed' },
};
