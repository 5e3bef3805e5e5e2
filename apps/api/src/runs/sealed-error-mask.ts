import { openRunInputs, type ExecutionStore, type ExecutionSummary, type SecretCipher } from '@ces/store';
import { MASKED_VALUE } from '../formats/representations.ts';

/**
 * Values shorter than this are not masked in errors: a one-character value ("1", "x") would mask
 * half of any message while hiding nothing.
 */
const MIN_MASKED_LENGTH = 3;
/**
 * Messages quote a part of what they read (V8's JSON.parse: the first ten characters), so a run of
 * this many characters of a value is masked too, wherever it is cut.
 */
const MIN_FRAGMENT_LENGTH = 8;

/**
 * `text` with every part that is a value, or a run of at least MIN_FRAGMENT_LENGTH characters of
 * one, replaced by the mask. Only a failed run's error, at most a thousand characters, goes
 * through it.
 */
export function maskValues(text: string, values: readonly string[]): string {
  const candidates = values.filter((value) => value.length >= MIN_MASKED_LENGTH);
  let masked = '';
  let index = 0;
  while (index < text.length) {
    let longest = 0;
    for (const value of candidates) {
      const least = Math.min(MIN_FRAGMENT_LENGTH, value.length);
      if (!value.includes(text.slice(index, index + least)) || index + least > text.length) continue;
      let length = least;
      while (index + length < text.length && value.includes(text.slice(index, index + length + 1))) length += 1;
      longest = Math.max(longest, length);
    }
    if (longest > 0) {
      masked += MASKED_VALUE;
      index += longest;
    } else {
      masked += text[index];
      index += 1;
    }
  }
  return masked;
}

/**
 * A failed run's `lasterror` may quote what its steps were given (a parser's message quotes the
 * text around a fault): the values the run keeps sealed — taken from a preset, or declared secret —
 * are masked in it before it is shown. Only records that failed and keep sealed inputs cost a read.
 */
export function createSealedErrorMask(deps: { executions: ExecutionStore; cipher?: SecretCipher }) {
  return async <Summary extends ExecutionSummary>(record: Summary): Promise<Summary> => {
    if (record.status !== 'ERROR' || !record.lasterror || !deps.cipher) return record;
    const sealed = await deps.executions.sealedInputs(record.id);
    if (sealed === undefined) return record;
    return { ...record, lasterror: maskValues(record.lasterror, Object.values(openRunInputs(deps.cipher, record.id, sealed))) };
  };
}

export type SealedErrorMask = ReturnType<typeof createSealedErrorMask>;
