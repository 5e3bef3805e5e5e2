--[[
  Terminates a RUNNING execution by the rule its descendants are terminated by
  (terminate_running in terminate-descendants.lua): one no worker holds (queued, deferred, handed
  back, suspended in a durable wait: no lease) ends TERMINATED_MANUALLY at once, here; one a
  worker holds gets its termination flag, which every worker sees between steps and when it takes
  the execution, and the request is published for the worker running it: it stops after its
  current step. Its job, if still queued, is left for the caller to take out of the queue; a take
  of it finds the execution ended and drops it.

  The request goes down to its descendants still RUNNING (terminate-descendants.lua), whether or
  not the execution itself is on a worker now, so that no child outlives its parent's termination.
  Their keys are named like KEYS[1], KEYS[5], KEYS[6], KEYS[7], KEYS[9] with their ids in place of `id`,
  and their account's keys like the execution's (a child runs for its parent's account). An
  execution that has ended passes the request on too: its end did already, so it finds none but a
  straggler.

  Record fields (RECORD_FIELDS in execution-record.ts), of the execution and of its descendants:
  reads `status terminate lease notify idempotency worker parent deadline starttime host choreo
  cancel`, and `account` of the execution; writes `terminate cancel` (terminationRequested,
  termination-flag.lua), or ends them as end-execution.lua does (`status endtime terminate cancel`,
  deletes `results lease notify letgo released deferrals cursor wait deadline store filters base
  depth`).

  KEYS[1] execution hash
  KEYS[2] running sorted set (all accounts)
  KEYS[3] waiting sorted set (suspend-execution.lua)
  KEYS[4] the service's execution counters (field `ended:<status>` counts each end)
  KEYS[5] the execution's progress hash
  KEYS[6] the execution's step history
  KEYS[7] the execution's set of running children (accept-execution.lua)
  KEYS[8] waiting-for-call-back sorted set (suspend-execution.lua)
  KEYS[9] the execution's run events (run-events.lua), where what it ends gets `execution.ended`

  ARGV[1] the request, a JSON object:
    id                  execution id
    now                 epoch milliseconds, as a string: the end time of what it ends
    retention_seconds   seconds to keep a record after it ends
    window_ms           window length of the stored bytes, milliseconds
    bytes_elsewhere     true when the account's stored bytes are counted elsewhere (accept-execution.lua)
    account_rows        name of an account's list rows of RUNNING executions, less the account
    account_running     name of an account's running set, less the account
    account_executing   name of an account's executing set, less the account
    stored_bytes_before name of an account's stored bytes in the current window: the part before
                        the account, with stored_bytes_after the part after it (see
                        end-execution.lua, KEYS[4])
    stored_bytes_after  see stored_bytes_before
    worker_executions   name of a worker's set of the executions it holds, less the worker id
    termination_channel channel on which to publish the id of a flagged execution
    legacy_termination_channel  the same channel by its earlier name (termination-flag.lua)
    history                     the run history's key templates (history-index.lua)
    webhooks                    the webhook outbox and the accounts' event counts (webhook-outbox.lua)
    ended_channel       channel on which to publish an end someone waits for (end-execution.lua)
    child_ended_channel channel on which to publish the end of a child execution
    run_events_bound    run events: how many a list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    publish             PUBLISH, or SPUBLISH on a Cluster: the command that publishes run events and ends

  Returns { the execution's status as it was ('' when it does not exist), 1 when this call ended
  it else 0, its account, the bytes of outputs of what it ended, the ids of the parents suspended in
  a wait for a child that an end made due (one space between two, '' for none: end-record.lua), the
  ids it ended (it, then its descendants) }. For RUNNING it is now ended or flagged; any other status is terminal and nothing
  changed but its descendants'.
]]
--- @include "end-record.lua"
--- @include "terminate-descendants.lua"
local args = cjson.decode(ARGV[1])
local state = redis.call('HMGET', KEYS[1], unpack(TERMINATION_FIELDS))
local status = state[1]
if status == false then
  return { '', 0 }
end
local account = redis.call('HGET', KEYS[1], 'account')
local ctx = ending_context(args, {
  running = KEYS[2],
  waiting = KEYS[3],
  waiting_for_call_back = KEYS[8],
  counts = KEYS[4],
  account_running = args.account_running .. account,
  stored_bytes = args.stored_bytes_before .. account .. args.stored_bytes_after,
  executing = args.account_executing .. account,
  rows = args.account_rows .. account,
  record = KEYS[1],
  progress = KEYS[5],
  steps = KEYS[6],
  children = KEYS[7],
  events = KEYS[9],
  account = account,
})
ctx.ended = {}
ctx.ended_bytes = 0
ctx.woken = {}
local ended = 0
if status == 'RUNNING' and terminate_running(ctx, args.id, state, false) then
  ended = 1
end
terminate_descendants(ctx, args.id)
return { status, ended, account, ctx.ended_bytes, table.concat(ctx.woken, ' '), unpack(ctx.ended) }
