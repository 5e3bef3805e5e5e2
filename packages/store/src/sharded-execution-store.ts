import type { AccountReservations } from './account-reservations.ts';
import type { AcceptResult } from './execution-acceptance.ts';
import type { ExecutionStore } from './execution-store.ts';
import { TERMINAL_STATUSES, type TerminalStatus } from './execution-status.ts';
import { executionShard } from './execution-ids.ts';
import { idempotencyShardText, shardIndexFor, type Shard, type ShardLayout } from './shard-layout.ts';

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
  const made = new Map<number, ExecutionStore>();
  const storeAt = (shard: Shard) => {
    let store = made.get(shard.index);
    if (store === undefined) {
      store = storeOf(shard);
      made.set(shard.index, store);
    }
    return store;
  };
  // A layout fixed at one shard has its one store; one that may grow asks where each run is.
  if (!layout.grows) return storeAt(layout.shards[0] as Shard);
  // At once when the shard is known, so that a call is sent in the order it is made (a record
  // before its job, on one connection); after reading the registry again when it is not.
  const on = <T>(id: string, call: (store: ExecutionStore) => Promise<T>): Promise<T> => {
    const shard = layout.shards[executionShard(id)];
    return shard ? call(storeAt(shard)) : layout.locate(id).then((located) => call(storeAt(located)));
  };
  const at = (id: string) => layout.locate(id).then(storeAt);
  const all = <T>(ask: (store: ExecutionStore) => Promise<T>) => Promise.all(layout.shards.map((shard) => ask(storeAt(shard))));
  const byStart = (a: { id: string; starttime: number }, b: { id: string; starttime: number }) =>
    a.starttime - b.starttime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

  return {
    async accept(execution, options) {
      // A key used before the deployment grew maps to another shard now: the run it started is
      // looked for on every shard it may have mapped to, and answered as its own shard would.
      const idempotency = options.idempotency;
      if (idempotency !== undefined && layout.shards.length > 1) {
        const text = idempotencyShardText(execution.account, idempotency.key);
        const own = executionShard(execution.id);
        const elsewhere = new Set(layout.shards.map((_, i) => shardIndexFor(text, i + 1)).filter((index) => index !== own));
        const entries = await Promise.all(
          [...elsewhere].map((index) => storeAt(layout.shards[index] as Shard).idempotencyEntry(execution.account, idempotency.key)),
        );
        const earlier = entries.find((entry) => entry !== undefined);
        if (earlier) return { outcome: 'replay', executionId: earlier.executionId, sameRequest: earlier.requestDigest === idempotency.requestDigest };
      }
      return on(execution.id, (store) => store.accept(execution, options));
    },
    async acceptMany(executions, options) {
      const results: AcceptResult[] = new Array(executions.length);
      const groups = new Map<ExecutionStore, number[]>();
      for (const [position, execution] of executions.entries()) {
        const store = await at(execution.id);
        const group = groups.get(store) ?? [];
        group.push(position);
        groups.set(store, group);
      }
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
    get: (id) => on(id, (store) => store.get(id)),
    redriveSource: (id) => on(id, (store) => store.redriveSource(id)),
    summary: (id, options) => on(id, (store) => store.summary(id, options)),
    sealedInputs: (id) => on(id, (store) => store.sealedInputs(id)),
    // Read where it was written: on the shard its key mapped to then (accept, above, looks on every one).
    idempotencyEntry: async (account, key) => {
      const entries = await all((store) => store.idempotencyEntry(account, key));
      return entries.find((entry) => entry !== undefined);
    },
    confirmReplicated: (id) => on(id, (store) => store.confirmReplicated(id)),
    take: (id, take) => on(id, (store) => store.take(id, take)),
    checkpoint: (id, checkpoint, lease, stepEvents, runEvents) => on(id, (store) => store.checkpoint(id, checkpoint, lease, stepEvents, runEvents)),
    recordProgress: (id, delta, lease, stepEvents, runEvents) => on(id, (store) => store.recordProgress(id, delta, lease, stepEvents, runEvents)),
    recordRunEvents: (id, lease, runEvents) => on(id, (store) => store.recordRunEvents(id, lease, runEvents)),
    stepHistory: (id) => on(id, (store) => store.stepHistory(id)),
    progress: (id) => on(id, (store) => store.progress(id)),
    end: (id, request) => on(id, (store) => store.end(id, request)),
    terminationRequested: (id) => on(id, (store) => store.terminationRequested(id)),
    requestTermination: (id) => on(id, (store) => store.requestTermination(id)),
    handBack: (id, lease) => on(id, (store) => store.handBack(id, lease)),
    suspend: (id, lease, request) => on(id, (store) => store.suspend(id, lease, request)),
    callbackDelivered: (id, address) => on(id, (store) => store.callbackDelivered(id, address)),
    waitIsDue: (id, dueMs) => on(id, (store) => store.waitIsDue(id, dueMs)),
    async overdueWaits(dueBy, limit, from) {
      // A place counts the runs due at its time across every shard, in the order of a single set
      // (due time, then id): each shard is read from that time whole, and the merge skips them.
      const skip = from?.skip ?? 0;
      const start = from === undefined ? undefined : { dueMs: from.dueMs, skip: 0 };
      const waits = (await all((store) => store.overdueWaits(dueBy, limit + skip, start))).flat();
      waits.sort((one, other) => one.dueMs - other.dueMs || (one.id < other.id ? -1 : one.id > other.id ? 1 : 0));
      return waits.slice(skip, skip + limit);
    },
    forgetLostRecord: (id) => on(id, (store) => store.forgetLostRecord(id)),

    async deliverCallback(token, body) {
      // A call back's token names no shard: its entry is on its run's, and each shard is asked
      // until one knows it (call backs are rare beside runs).
      const ask = async (shards: readonly Shard[]) => {
        for (const shard of shards) {
          const delivery = await storeAt(shard).deliverCallback(token, body);
          if (delivery.outcome !== 'unknown') return delivery;
        }
        return undefined;
      };
      // Then the shards added since this process last looked.
      return (await ask(layout.shards)) ?? (await ask(await layout.refresh())) ?? { outcome: 'unknown' };
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
