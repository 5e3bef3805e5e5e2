import type { Redis } from 'ioredis';
import { RECORD_FIELDS } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { resealOutputs } from './sealed-outputs.ts';
import { resealProgressEntry, resealResults } from './sealed-results.ts';
import { openRunInputs, sealRunInputs } from './sealed-inputs.ts';
import { registerScripts } from './scripts.ts';
import type { SecretCipher } from './secret-cipher.ts';

const GLOB_SPECIAL = /[*?[\]\\]/g;
/** An execution's progress hash: `exec:<id>:progress` (keys.ts). */
const PROGRESS_SUFFIX = ':progress';

/**
 * Seals again under the current key what execution records keep sealed with a previous one — the
 * inputs a run took from a preset or declared secret, its secret outputs, and while it runs its
 * secret step results (checkpoint, durable wait, progress inside a block) — for as long as they
 * are retained. No index lists every record (ended ones are kept by expiry alone), so the
 * records are found by a scan of their keys; each value is replaced only where it was not changed
 * meanwhile (a running execution's next checkpoint seals with the current key anyway). Returns
 * how many records were sealed again.
 */
export async function resealExecutionSecrets(deps: { redis: Redis; keys: KeySpace; cipher: SecretCipher }): Promise<number> {
  const { redis, keys, cipher } = deps;
  const run = registerScripts(redis);
  const base = keys.execution('');
  // By id: a record and its progress count as one.
  const resealed = new Set<string>();
  const stream = redis.scanStream({ match: `${base.replace(GLOB_SPECIAL, '\\$&')}*`, type: 'hash', count: 500 });
  for await (const batch of stream as AsyncIterable<string[]>) {
    for (const key of batch) {
      const id = key.slice(base.length);
      if (id.endsWith(PROGRESS_SUFFIX) && !id.slice(0, -PROGRESS_SUFFIX.length).includes(':')) {
        const executionId = id.slice(0, -PROGRESS_SUFFIX.length);
        if ((await resealProgress(key, executionId)) > 0) resealed.add(executionId);
        continue;
      }
      if (id === '' || id.includes(':')) continue;
      const [output, sealedInputs, results, waitEntries] = await redis.hmget(
        key,
        RECORD_FIELDS.output,
        RECORD_FIELDS.sealedInputs,
        RECORD_FIELDS.results,
        RECORD_FIELDS.waitEntries,
      );
      let changed = false;
      if (sealedInputs && cipher.sealedWithOldKey(sealedInputs)) {
        const renewed = sealRunInputs(cipher, id, openRunInputs(cipher, id, sealedInputs));
        changed = Number(await run('resealField', [key], [RECORD_FIELDS.sealedInputs, sealedInputs, renewed])) === 1 || changed;
      }
      if (output) {
        const renewed = resealOutputs(cipher, id, JSON.parse(output) as Record<string, string>);
        if (renewed) changed = Number(await run('resealField', [key], [RECORD_FIELDS.output, output, JSON.stringify(renewed)])) === 1 || changed;
      }
      if (results) {
        const renewed = resealResults(cipher, id, JSON.parse(results) as Record<string, unknown>);
        if (renewed) changed = Number(await run('resealField', [key], [RECORD_FIELDS.results, results, JSON.stringify(renewed)])) === 1 || changed;
      }
      if (waitEntries) {
        const entries = Object.entries(JSON.parse(waitEntries) as Record<string, unknown>);
        const renewed = entries.map(([address, value]) => [address, resealProgressEntry(cipher, id, address, value) ?? value] as const);
        if (renewed.some(([, value], index) => value !== entries[index]?.[1])) {
          const text = JSON.stringify(Object.fromEntries(renewed));
          changed = Number(await run('resealField', [key], [RECORD_FIELDS.waitEntries, waitEntries, text])) === 1 || changed;
        }
      }
      if (changed) resealed.add(id);
    }
  }
  return resealed.size;

  /** The entries of one execution's progress hash sealed with a previous key, sealed again: how many. */
  async function resealProgress(key: string, id: string): Promise<number> {
    let count = 0;
    for (const [address, json] of Object.entries(await redis.hgetall(key))) {
      const renewed = resealProgressEntry(cipher, id, address, JSON.parse(json) as unknown);
      if (renewed !== undefined) count += Number(await run('resealField', [key], [address, json, JSON.stringify(renewed)]));
    }
    return count;
  }
}
