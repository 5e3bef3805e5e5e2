/**
 * A connection URL fit for messages and logs: its password replaced by `***`. A URL that does not
 * parse is shown only as `fallback`, since whatever it holds could be a secret.
 */
export function displayUrl(url: string, fallback: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return fallback;
  }
}

/** A Redis Cluster's nodes as REDIS_CLUSTER_NODES names them (`host:port,…`), for messages. */
export function displayClusterNodes(nodes: readonly { host: string; port: number }[]): string {
  return nodes.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
}
