import type { AccountReservations } from './account-reservations.ts';
import type { AcceptResult, ExecutionStore } from './execution-store.ts';
import { TERMINAL_STATUSES, type TerminalStatus } from './execution-status.ts';
import type { Shard, ShardLayout } from './shard-layout.ts';

/**
 * One ExecutionStore over every shard of a layout: what concerns one execution goes to the shard
 * its id names (a child's, a redrive's and a tick's id name theirs: execution-ids.ts), and what
 * concerns many (counts, lists, the running walk) is asked of every shard and merged. With one
 * shard it is that shard's store itself.
 */
export function createShardedExecutionStore(
  layout: ShardLayout,
  storeOf: (shard: Shard) => ExecutionStore,
  /** The account's limits in the control slot, which the shards' stores were given: stored bytes are counted there. */
  reservations?: AccountReservations,
): ExecutionStore {
  const stores = layout.shards.map(storeOf);
  const only = stores[0];
  if (stores.length === 1 && only) return only;
  const of = (id: string) => stores[layout.shardOf(id).index] as ExecutionStore;
  const all = <T>(ask: (store: ExecutionStore) => Promise<T>) => Promise.all(stores.map(ask));
  const byStart = (a: { id: string; starttime: number }, b: { id: string; starttime: number }) =>
    a.starttime - b.starttime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

  return {
    accept: (execution, options) => of(execution.id).accept(execution, options),
    async acceptMany(executions, options) {
      const results: AcceptResult[] = new Array(executions.length);
      const groups = new Map<ExecutionStore, number[]>();
      executions.forEach((execution, position) => {
        const store = of(execution.id);
        const group = groups.get(store) ?? [];
        group.push(position);
        groups.set(store, group);
      });
      await Promise.all(
        [...groups].map(async ([store, positions]) => {
          const accepted = await store.acceptMany(
            positions.map((position) => executions[position] as (typeof executions)[number]),
            options,
          );
          positions.forEach((position, i) => {
            results[position] = accepted[i] as AcceptResult;
          });
        }),
      );
      return results;
    },
    get: (id) => of(id).get(id),
    redriveSource: (id) => of(id).redriveSource(id),
    summary: (id, options) => of(id).summary(id, options),
    sealedInputs: (id) => of(id).sealedInputs(id),
    take: (id, take) => of(id).take(id, take),
    checkpoint: (id, checkpoint, lease, stepEvents, runEvents) => of(id).checkpoint(id, checkpoint, lease, stepEvents, runEvents),
    recordProgress: (id, delta, lease, stepEvents, runEvents) => of(id).recordProgress(id, delta, lease, stepEvents, runEvents),
    recordRunEvents: (id, lease, runEvents) => of(id).recordRunEvents(id, lease, runEvents),
    stepHistory: (id) => of(id).stepHistory(id),
    progress: (id) => of(id).progress(id),
    end: (id, request) => of(id).end(id, request),
    terminationRequested: (id) => of(id).terminationRequested(id),
    requestTermination: (id) => of(id).requestTermination(id),
    handBack: (id, lease) => of(id).handBack(id, lease),
    suspend: (id, lease, request) => of(id).suspend(id, lease, request),
    callbackDelivered: (id, address) => of(id).callbackDelivered(id, address),
    forgetLostRecord: (id) => of(id).forgetLostRecord(id),

    async deliverCallback(token, body) {
      // A call back's token names no shard: its entry is on its run's, and each shard is asked
      // until one knows it (call backs are rare beside runs).
      for (const store of stores) {
        const delivery = await store.deliverCallback(token, body);
        if (delivery.outcome !== 'unknown') return delivery;
      }
      return { outcome: 'unknown' };
    },

    async countWaiting() {
      const counts = await all((store) => store.countWaiting());
      return { total: sum(counts.map((count) => count.total)), forCallBack: sum(counts.map((count) => count.forCallBack)) };
    },
    countAllRunning: async () => sum(await all((store) => store.countAllRunning())),
    countRunning: async (account) => sum(await all((store) => store.countRunning(account))),
    storedBytes: async (account, now) => (reservations ? reservations.storedBytes(account, now) : sum(await all((store) => store.storedBytes(account, now)))),
    listRunning: async (account) => (await all((store) => store.listRunning(account))).flat().sort(byStart),
    async runningIds(limit = 1000) {
      return (await all((store) => store.runningIds(limit))).flat().sort(byStart).slice(0, limit);
    },
    async runningBetween(range) {
      const found = (await all((store) => store.runningBetween(range))).flat().sort(byStart);
      return range.limit === undefined ? found : found.slice(0, range.limit);
    },
    async counts() {
      const counts = await all((store) => store.counts());
      const ended = Object.fromEntries(TERMINAL_STATUSES.map((status) => [status, sum(counts.map((count) => count.ended[status]))]));
      return { started: sum(counts.map((count) => count.started)), ended: ended as Record<TerminalStatus, number> };
    },
  };
}
