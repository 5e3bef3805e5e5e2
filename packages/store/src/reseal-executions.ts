import type { Redis } from 'ioredis';
import { RECORD_FIELDS } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { resealOutputs } from './sealed-outputs.ts';
import { openRunInputs, sealRunInputs } from './sealed-inputs.ts';
import { registerScripts } from './scripts.ts';
import type { SecretCipher } from './secret-cipher.ts';

const GLOB_SPECIAL = /[*?[\]\\]/g;

/**
 * Seals again under the current key what execution records keep sealed with a previous one — the
 * inputs a run took from a preset or declared secret, and its secret outputs — for as long as
 * they are retained. No index lists every record (ended ones are kept by expiry alone), so the
 * records are found by a scan of their keys; each value is replaced only where it was not changed
 * meanwhile (a running execution's next checkpoint seals with the current key anyway). Returns
 * how many records were sealed again.
 */
export async function resealExecutionSecrets(deps: { redis: Redis; keys: KeySpace; cipher: SecretCipher }): Promise<number> {
  const { redis, keys, cipher } = deps;
  const run = registerScripts(redis);
  const base = keys.execution('');
  let resealed = 0;
  const stream = redis.scanStream({ match: `${base.replace(GLOB_SPECIAL, '\\$&')}*`, type: 'hash', count: 500 });
  for await (const batch of stream as AsyncIterable<string[]>) {
    for (const key of batch) {
      const id = key.slice(base.length);
      // An execution's progress is a hash too (`exec:<id>:progress`): it keeps no sealed value.
      if (id === '' || id.includes(':')) continue;
      const [output, sealedInputs] = await redis.hmget(key, RECORD_FIELDS.output, RECORD_FIELDS.sealedInputs);
      let changed = false;
      if (sealedInputs && cipher.sealedWithOldKey(sealedInputs)) {
        const renewed = sealRunInputs(cipher, id, openRunInputs(cipher, id, sealedInputs));
        changed = Number(await run('resealField', [key], [RECORD_FIELDS.sealedInputs, sealedInputs, renewed])) === 1 || changed;
      }
      if (output) {
        const renewed = resealOutputs(cipher, id, JSON.parse(output) as Record<string, string>);
        if (renewed) changed = Number(await run('resealField', [key], [RECORD_FIELDS.output, output, JSON.stringify(renewed)])) === 1 || changed;
      }
      if (changed) resealed += 1;
    }
  }
  return resealed;
}
