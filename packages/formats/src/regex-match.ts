import type { QueryAnswer } from './query-result.ts';

export interface RegexMatchRequest {
  text: string;
  pattern: string;
  flags: string;
}

/** The first match of the pattern (`result`, empty when none) and whether there was one (`count` 1 or 0). */
export function regexMatch(request: RegexMatchRequest): QueryAnswer {
  const match = new RegExp(request.pattern, request.flags.replace('g', '')).exec(request.text);
  return match === null ? { result: '', count: 0 } : { result: match[0], count: 1 };
}
