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
