import type { Redis } from 'ioredis';
import type { ExecutionStatus } from './execution-status.ts';
import type { KeySpace } from './keys.ts';

const STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];
const PAGE = 200;

export interface HistorySweepReport {
  /** Index entries taken out: their record had expired. */
  removed: number;
  /** Records looked up. */
  checked: number;
}

export interface HistorySweep {
  /**
   * One pass over every index of the run history, unless another process holds the sweep's lock
   * (then it answers undefined).
   */
  sweep(holder: string): Promise<HistorySweepReport | undefined>;
}

/**
 * Takes the ids of expired records out of the run history's indexes. A record expires by its TTL,
 * which no script sees, so its index entries outlive it: a read of the history drops those it
 * meets, and this sweep drops the rest, which would otherwise grow without end in the indexes
 * nobody reads. Expired runs are the oldest by start time, so each index is walked oldest first a
 * page at a time, and left at the first page with nothing expired; a pass looks up at most
 * `maxChecks` records, so a large backlog is cleared over several passes.
 */
export function createHistorySweep(deps: { redis: Redis; keys: KeySpace; lockMs: number; maxChecks?: number }): HistorySweep {
  const { redis, keys } = deps;
  const maxChecks = deps.maxChecks ?? 20_000;

  async function indexes(): Promise<string[]> {
    const found = [keys.history()];
    for (const account of await redis.smembers(keys.historyAccounts())) {
      found.push(...STATUSES.map((status) => keys.accountHistoryByStatus(account, status)));
      for (const choreo of await redis.smembers(keys.accountHistoryChoreos(account))) found.push(keys.accountHistoryByChoreo(account, choreo));
      // What an earlier version indexed for every account; all of it is in the status indexes.
      await redis.unlink(keys.legacyAccountHistory(account));
    }
    return found;
  }

  return {
    async sweep(holder) {
      if ((await redis.set(keys.historySweepLock(), holder, 'PX', deps.lockMs, 'NX')) !== 'OK') return undefined;
      const report: HistorySweepReport = { removed: 0, checked: 0 };
      for (const index of await indexes()) {
        let offset = 0;
        while (report.checked < maxChecks) {
          const ids = await redis.zrange(index, String(offset), String(offset + PAGE - 1));
          if (ids.length === 0) break;
          const pipeline = redis.pipeline();
          for (const id of ids) pipeline.exists(keys.execution(id));
          const exists = (await pipeline.exec()) ?? [];
          const expired = ids.filter((_, i) => exists[i]?.[1] === 0);
          report.checked += ids.length;
          if (expired.length > 0) {
            await redis.zrem(index, ...expired);
            report.removed += expired.length;
          }
          if (expired.length === 0 || ids.length < PAGE) break;
          offset += ids.length - expired.length;
        }
      }
      return report;
    },
  };
}
