const EVERY_CHOREO = '/**';

/**
 * Choreo access patterns: `/Library/Utilities/**` (everything below), `/Library/*\/Get` (one
 * segment), or an exact id. `/**` allows every Choreo.
 */
export function matchesChoreoPattern(pattern: string, choreoId: string): boolean {
  // Checked on every request: most credentials hold `/**` or exact ids, which need no segments.
  if (pattern === EVERY_CHOREO || pattern === choreoId) return true;
  const patternSegments = pattern.split('/').filter(Boolean);
  const idSegments = choreoId.split('/').filter(Boolean);
  return matchSegments(patternSegments, 0, idSegments, 0);
}

function matchSegments(pattern: string[], p: number, id: string[], i: number): boolean {
  const segment = pattern[p];
  if (segment === undefined) return i === id.length;
  if (segment === '**') {
    for (let next = i; next <= id.length; next += 1) if (matchSegments(pattern, p + 1, id, next)) return true;
    return false;
  }
  const part = id[i];
  if (part === undefined) return false;
  return matchSegment(segment, part) && matchSegments(pattern, p + 1, id, i + 1);
}

function matchSegment(pattern: string, segment: string): boolean {
  if (!pattern.includes('*')) return pattern === segment;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[^/]*')}$`);
  return regex.test(segment);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function mayAccessChoreo(patterns: readonly string[], choreoId: string): boolean {
  return patterns.some((pattern) => matchesChoreoPattern(pattern, choreoId));
}

export function isValidChoreoPattern(pattern: string): boolean {
  return /^\/[A-Za-z0-9_.*/-]*$/.test(pattern) && !pattern.split('/').some((s) => s === '..' || s === '.');
}
