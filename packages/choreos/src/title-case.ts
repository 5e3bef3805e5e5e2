/**
 * Lower-cases `text` and capitalises the first letter of each word (after a space, `-`, `_`, `/`,
 * an opening bracket or a quote). Linear, but a callback per word: megabytes take half a second,
 * so the step runs it on a sandbox thread.
 */
export function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[\s\-_/([{"'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}
