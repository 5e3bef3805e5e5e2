/**
 * Every Redis key and channel the service uses, built in this one place.
 *
 * The prefix is a Cluster hash tag (`{ces}` by default), so all keys — ours and BullMQ's, whose
 * queue uses the same prefix — hash to one slot and multi-key Lua scripts stay legal.
 */
export interface KeySpace {
  readonly prefix: string;
  /** Hash: one execution record. Expires RETENTION_SECONDS after it ends. */
  execution(id: string): string;
  /**
   * Hash: address → JSON result of each step and loop iteration completed inside the top-level
   * block an execution is in (record-progress.lua), appended to as they complete; deleted once
   * the block has completed and when the execution ends.
   */
  executionProgress(id: string): string;
  /**
   * List: the execution's step events as JSON, in the order they were written (step-history.lua),
   * bounded; no TTL while it runs, the record's once it ends.
   */
  executionSteps(id: string): string;
  /**
   * List: the execution's run events (run-events.ts), each `<seq> <data, one line of JSON>`, its
   * number in the run being its id, appended by the scripts that write its progress and its end
   * (run-events.lua), bounded; no TTL while it runs, the record's once it ends.
   */
  executionEvents(id: string): string;
  /**
   * Set: ids of the execution's child executions still RUNNING (accept-execution.lua adds, the
   * child's end takes out), through which a termination or an end reaches them
   * (terminate-descendants.lua); no TTL while it runs, the record's once it ends.
   */
  executionChildren(id: string): string;
  /** Sorted set: ids of all RUNNING executions, scored by start time. */
  running(): string;
  /**
   * Sorted set: ids of RUNNING executions suspended in a durable wait, scored by when they are due
   * (suspend-execution.lua); a take or the end takes them out. What operations count as waiting.
   */
  waiting(): string;
  /**
   * Sorted set: the ids of `waiting` that wait for a call back (control.waitForCallback), scored
   * like them; left with them. What operations count apart as waiting for a call back.
   */
  waitingForCallBack(): string;
  /**
   * String with TTL: `<execution id>\n<address of the step>` of a run waiting for a call back, under
   * the sha256 (hex) of its URL's token; expires when the wait does, deleted by the call back.
   */
  callback(tokenDigest: string): string;
  /** Set: ids of one account's RUNNING executions (list and quota). */
  accountRunning(account: string): string;
  /**
   * Hash: execution id → what the list of one account's RUNNING executions shows of it, as
   * `starttime host worker <termination flag> choreo` joined by tabs: written by every script that accepts,
   * takes, hands back, flags or ends an execution, so that a list is one read, not one per run.
   */
  accountRunningRows(account: string): string;
  /**
   * Set: ids of one account's executions that a worker has taken and not yet ended or handed back,
   * for the limit on executions executing at once. Scripts that know only the record append the
   * account to `accountExecuting('')`.
   */
  accountExecuting(account: string): string;
  /**
   * Sorted set: execution id → start time of one account's runs reserved in the control slot
   * before their shard accepted them (reserve-runs.lua), with more than one shard: the account's
   * RUNNING executions over all shards, for its quota; taken out at their end.
   */
  accountReservedRuns(account: string): string;
  /**
   * Sorted set: execution id → when reserved, of one account's runs a worker takes or holds, in the
   * control slot (reserve-executing.lua), with more than one shard and MAX_EXECUTING_PER_ACCOUNT.
   */
  accountReservedExecuting(account: string): string;
  /**
   * String (integer) with TTL: bytes one account's executions stored in one window of the
   * retention's length (`storageWindow`), for its budget of stored bytes.
   */
  accountStoredBytes(account: string, window: number | string): string;
  /**
   * String: `<execution id> <request digest>` of the run an account started with an
   * Idempotency-Key, by the sha256 of that key. It expires with the record that names it.
   */
  idempotencyKey(account: string, keyDigest: string): string;
  /**
   * Hash: counters of every execution the service has accepted (`started`) and ended (`ended:<status>`),
   * kept for ever, incremented by the scripts that accept and end executions: fleet-wide metrics
   * that any API reads in one command.
   */
  executionCounts(): string;
  /**
   * Sorted set: ids of every retained execution of all accounts, scored by start time (run
   * history, history-index.lua): added on accept, taken out when a read finds the record expired.
   */
  history(): string;
  /**
   * Sorted set: the same, of one account, of every status. No longer written (an account's runs
   * are the union of its status indexes); the history sweep deletes what an earlier version left.
   */
  legacyAccountHistory(account: string): string;
  /** String: the worker that runs the history sweep now (history-sweep.ts), with a TTL. */
  historySweepLock(): string;
  /** Set: the accounts that have runs in the history, for the history sweep. */
  historyAccounts(): string;
  /** Set: the Choreos one account has runs of in the history, for the history sweep. */
  accountHistoryChoreos(account: string): string;
  /** Sorted set: the same, of one account's executions in one status (RUNNING moves on its end). */
  accountHistoryByStatus(account: string, status: string): string;
  /** Sorted set: the same, of one account's executions of one Choreo. */
  accountHistoryByChoreo(account: string, choreo: string): string;
  /** String: a Choreo definition snapshot, by the sha256 of its canonical JSON. */
  definition(digest: string): string;
  /** Set: names of all accounts. */
  accounts(): string;
  /** Hash: one account's metadata. */
  account(name: string): string;
  /**
   * Hash: one schedule (its spec, its cursor = the scheduled time of its next tick, counters, in
   * one-letter fields: schedule-record.ts); the schedule-store module writes it,
   * advance-schedules.lua moves its cursor.
   */
  schedule(account: string, name: string): string;
  /** Set: names of one account's schedules. */
  accountSchedules(account: string): string;
  /**
   * Sorted set: `<account>\n<name>` of every unpaused schedule, scored by when a firer may next
   * take it: its next tick, or the end of the lease of the firer that claimed it.
   */
  schedulesDue(): string;
  /**
   * String: a count of the writes that change what a firer holding a schedule would fire (put,
   * pause, resume, delete): a firer that claimed ahead of a tick reads it again at the tick.
   */
  scheduleChanges(): string;
  /**
   * Hash: webhook subscription name → JSON (webhook-store.ts: URL, events, Choreo patterns, sealed
   * signing secrets, whether a 410 disabled it) of one account.
   */
  accountWebhooks(account: string): string;
  /**
   * Hash: event type → how many of one account's subscriptions list it, kept with the subscriptions
   * (put-webhook.lua, delete-webhook.lua): the scripts that accept and end runs read it, so an
   * account without subscriptions costs them one lookup and no outbox entry.
   */
  accountWebhookEvents(account: string): string;
  /** Hash: the account's notify secret (`secret`, `previous`, `previousuntil`, sealed), for `?notify=`. */
  accountWebhookNotify(account: string): string;
  /**
   * Sorted set: `<kind>\n<account>\n<execution id>` of runs whose event may have a webhook to send
   * (kind `start` or `end`), added atomically with the status change, scored by when a dispatcher
   * may next take it (claim-webhook-events.lua); removed once its deliveries exist.
   */
  webhookOutbox(): string;
  /**
   * Hash: one delivery (webhook-deliveries.ts: its subscription, event, execution, URL, body, attempts,
   * last status and error, next attempt, `state` pending, delivered or dead, `round`); expires.
   */
  webhookDelivery(id: string): string;
  /** Sorted set: ids of one subscription's recent deliveries, scored by creation, trimmed. */
  webhookDeliveries(account: string, name: string): string;
  /** Hash: user name → JSON credential record. */
  accountUsers(account: string): string;
  /** Hash: application name → JSON credential record. */
  accountApps(account: string): string;
  /** Hash: operator name → JSON credential record. */
  operators(): string;
  /** Hash: Choreo id → JSON `{version, updated, document}`: the Choreos one account wrote itself. */
  accountChoreos(account: string): string;
  /** Hash: Choreo id → the last version given to it in one account, kept after a delete. */
  accountChoreoVersions(account: string): string;
  /**
   * Hash: preset name → JSON `{inputs: [{name, secret, value}], updated}` of one account, each
   * value sealed (secret-cipher.ts).
   */
  accountPresets(account: string): string;
  /**
   * Hash: one stored token of an account (TokenStorage): `value` (sealed), `valid` (1/0), `lock`
   * (epoch ms the lock lasts until), `updated`; the key expires with the token's `Expires`.
   */
  accountToken(account: string, name: string): string;
  /** Set: the names of an account's stored tokens, for re-encryption (may name expired ones). */
  accountTokenNames(account: string): string;
  /**
   * Hash with TTL: what a callback URL's token (its last path segment) stands for: `account id
   * forward filtername filtervalue`. Expires ten minutes after the callback was registered.
   */
  callbackUrl(token: string): string;
  /** List with TTL: the requests a callback of an account received, as JSON, the latest last. */
  accountCallbackRequests(account: string, id: string): string;
  /**
   * Hash with TTL: one signed-in console session (`kind account name credential csrf expires`),
   * by the sha256 (hex) of its cookie's token; expires with the session, deleted on sign-out.
   */
  consoleSession(tokenDigest: string): string;
  /** String (JSON) with TTL: one worker's heartbeat. */
  worker(id: string): string;
  /** Sorted set: worker ids scored by last heartbeat, an index over the expiring records. */
  workers(): string;
  /**
   * Set with TTL: ids of the executions one worker holds, written by the scripts that take, hand
   * back and end an execution, so that `/ops/workers` shows a run on its worker from the take on.
   * Scripts append the worker id to `workerExecutions('')`; heartbeats keep it from expiring.
   */
  workerExecutions(workerId: string): string;
  /**
   * Hash: shard index → its key prefix (shard-layout.ts), in the control slot: every shard runs were
   * ever put on, the tag of each chosen once; `added:<index>`, when each was registered (ticks map
   * among the shards registered before them: ShardLayout.shardsAt); `since`, when a second shard
   * was first registered.
   */
  shards(): string;
  /** String with TTL: the lock that lets one reconciler run at a time. */
  reconcilerLock(): string;
  /**
   * String with TTL: the start time up to which the reconciler has looked at RUNNING executions in
   * its current walk through them, whichever worker takes the next pass.
   */
  reconcilerCursor(): string;
  /**
   * String with TTL: `<due time>:<count>`, where the reconciler's current scan of overdue durable
   * waits goes on (past that many of the runs due at that time), whichever worker takes the next pass.
   */
  reconcilerOverduePlace(): string;
  /** Pub/sub channel: an execution id, published when it reaches a terminal status. */
  executionEndedChannel(): string;
  /**
   * String read by nobody: a write of it makes a connection's replication offset reach every write
   * its primary made so far, so that a WAIT after it covers writes that other processes made
   * (ExecutionStore.confirmReplicated). It expires a minute after the last.
   */
  replicationMark(): string;
  /** Pub/sub channel: an execution id, published when run events were added to its stream. */
  runEventsChannel(): string;
  /** Pub/sub channel: the id of a child execution (notify `parent`), published when it ends. */
  childEndedChannel(): string;
  /** Pub/sub channel: an execution id, published when termination is requested. */
  terminationRequestedChannel(): string;
  /**
   * The same channel by its earlier name, on which processes of earlier versions publish and
   * listen: termination requests go out on both, and workers listen on both (termination-flag.lua).
   */
  legacyTerminationRequestedChannel(): string;
  /**
   * Pub/sub channel: `<credential hash key>\n<name>`, published in the same transaction as every
   * change to a user, application or operator, so that API processes drop the credential records
   * they remember.
   */
  credentialsChangedChannel(): string;
}

export const EXECUTION_QUEUE = 'executions';
/** BullMQ queue of webhook deliveries, apart from runs: a slow endpoint holds no run back. */
export const WEBHOOK_QUEUE = 'webhook-deliveries';

export function createKeySpace(prefix: string): KeySpace {
  return {
    prefix,
    execution: (id) => `${prefix}:exec:${id}`,
    executionProgress: (id) => `${prefix}:exec:${id}:progress`,
    executionSteps: (id) => `${prefix}:exec:${id}:steps`,
    executionEvents: (id) => `${prefix}:exec:${id}:events`,
    executionChildren: (id) => `${prefix}:exec:${id}:children`,
    running: () => `${prefix}:running`,
    waiting: () => `${prefix}:waiting`,
    waitingForCallBack: () => `${prefix}:waiting:call-back`,
    callback: (tokenDigest) => `${prefix}:callback:${tokenDigest}`,
    accountRunning: (account) => `${prefix}:running:account:${account}`,
    accountRunningRows: (account) => `${prefix}:running-rows:account:${account}`,
    accountExecuting: (account) => `${prefix}:executing:account:${account}`,
    accountReservedRuns: (account) => `${prefix}:reserved:account:${account}`,
    accountReservedExecuting: (account) => `${prefix}:reserved-executing:account:${account}`,
    accountStoredBytes: (account, window) => `${prefix}:stored:account:${account}:${window}`,
    idempotencyKey: (account, keyDigest) => `${prefix}:idempotency:${account}:${keyDigest}`,
    executionCounts: () => `${prefix}:counts:executions`,
    history: () => `${prefix}:history`,
    legacyAccountHistory: (account) => `${prefix}:history:account:${account}`,
    historyAccounts: () => `${prefix}:history:accounts`,
    historySweepLock: () => `${prefix}:history:sweep-lock`,
    accountHistoryChoreos: (account) => `${prefix}:history:account:${account}:choreos`,
    accountHistoryByStatus: (account, status) => `${prefix}:history:account:${account}:status:${status}`,
    accountHistoryByChoreo: (account, choreo) => `${prefix}:history:account:${account}:choreo:${choreo}`,
    definition: (digest) => `${prefix}:def:${digest}`,
    accounts: () => `${prefix}:accounts`,
    account: (name) => `${prefix}:account:${name}`,
    schedule: (account, name) => `${prefix}:schedule:${account}:${name}`,
    accountSchedules: (account) => `${prefix}:schedules:account:${account}`,
    schedulesDue: () => `${prefix}:schedules:due`,
    scheduleChanges: () => `${prefix}:schedules:changes`,
    accountWebhooks: (account) => `${prefix}:webhooks:account:${account}`,
    accountWebhookEvents: (account) => `${prefix}:webhook-events:account:${account}`,
    accountWebhookNotify: (account) => `${prefix}:webhook-notify:account:${account}`,
    webhookOutbox: () => `${prefix}:webhooks:outbox`,
    webhookDelivery: (id) => `${prefix}:webhook-delivery:${id}`,
    webhookDeliveries: (account, name) => `${prefix}:webhook-deliveries:${account}:${name}`,
    accountUsers: (account) => `${prefix}:account:${account}:users`,
    accountApps: (account) => `${prefix}:account:${account}:apps`,
    operators: () => `${prefix}:operators`,
    accountChoreos: (account) => `${prefix}:account:${account}:choreos`,
    accountChoreoVersions: (account) => `${prefix}:account:${account}:choreo-versions`,
    accountPresets: (account) => `${prefix}:presets:account:${account}`,
    accountToken: (account, name) => `${prefix}:token:${account}:${name}`,
    accountTokenNames: (account) => `${prefix}:tokens:account:${account}`,
    callbackUrl: (token) => `${prefix}:callback-url:${token}`,
    accountCallbackRequests: (account, id) => `${prefix}:callback-requests:${account}:${id}`,
    consoleSession: (tokenDigest) => `${prefix}:console-session:${tokenDigest}`,
    worker: (id) => `${prefix}:worker:${id}`,
    workers: () => `${prefix}:workers`,
    workerExecutions: (workerId) => `${prefix}:worker-executions:${workerId}`,
    shards: () => `${prefix}:shards`,
    reconcilerLock: () => `${prefix}:reconciler:lock`,
    reconcilerCursor: () => `${prefix}:reconciler:cursor`,
    reconcilerOverduePlace: () => `${prefix}:reconciler:overdue-place`,
    executionEndedChannel: () => `${prefix}:events:execution-ended`,
    replicationMark: () => `${prefix}:replicated`,
    runEventsChannel: () => `${prefix}:events:run-events`,
    childEndedChannel: () => `${prefix}:events:child-ended`,
    terminationRequestedChannel: () => `${prefix}:events:termination-requested`,
    legacyTerminationRequestedChannel: () => `${prefix}:events:cancel-requested`,
    credentialsChangedChannel: () => `${prefix}:events:credentials-changed`,
  };
}
