--[[
  Ends a RUNNING execution: moves it to a terminal status, the one compare-and-set through which
  every execution ends. A terminal status is never overwritten. Once termination has been
  requested (and answered 204), the execution ends as TERMINATED_MANUALLY whatever the outcome
  reported. When someone waits for the end (the record's `notify` field, set when accepted), the
  end is published: the id, a newline and the ended record's fields as a JSON array, so the waiter
  need not read it; the id alone when that would be larger than 64 KiB. A child execution's end
  (`notify` = `parent`) is published on its own channel, the id alone: its parent's worker reads
  the record, and the workers that listen for children's ends are not sent every synchronous
  caller's records. The entry of the run's
  Idempotency-Key, which the record names (field `idempotency`), expires with the record: a key
  of the prefix, so in the same Cluster slot, though not among KEYS.

  The execution leaves the set of the executions its worker holds (keys.ts, workerExecutions), and
  its parent's set of running children (keys.ts, executionChildren; the record's `parent`).

  Whatever the status it ends in, its descendants still RUNNING are terminated with it
  (terminate-descendants.lua): a child of a failed, terminated or limited parent must not run on,
  and a parent that ends SUCCESS has waited for its children, so finds none. Their keys are named
  like KEYS[1], KEYS[8], KEYS[9], KEYS[11] and KEYS[13] with their ids in place of the execution's.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status terminate lease notify
  idempotency worker parent deadline cancel`; writes `status endtime`, `history` (see KEYS[9]),
  `output` when given, `step` when given unless it ends SUCCESS, `host worker` for an untaken
  instant run, `lasterror errortime` on ERROR; deletes `results lease notify letgo released
  deferrals cursor wait deadline store filters base depth` (and `step` on SUCCESS), and the
  progress hash (checkpoint-execution.lua, record-progress.lua), only needed by a running run — but
  an end in ERROR or TERMINATED_LIMIT keeps `results store filters step` and the progress (which
  then expires with the record), from which a redrive starts. Of descendants: reads and writes as
  request-termination.lua does.

  KEYS[1] execution hash
  KEYS[2] running sorted set (all accounts)
  KEYS[3] running set of the execution's account
  KEYS[4] the account's stored bytes in the current window (see accept-execution.lua): the
          outputs the record keeps are counted there
  KEYS[5] executing set of the execution's account (see take-execution.lua)
  KEYS[6] the account's list rows of RUNNING executions
  KEYS[7] the service's execution counters (field `ended:<status>` counts this end)
  KEYS[8] the execution's progress hash
  KEYS[9] the execution's step history (step-history.lua): the events given are appended, and it
          expires with the record; when it does not exist and they fit its bound, they are written
          to the record's `history` field instead, as one JSON array
  KEYS[10] the waiting sorted set (suspend-execution.lua), which an ended execution leaves
  KEYS[11] the execution's set of running children (accept-execution.lua), which expires with
           the record
  KEYS[12] the waiting-for-call-back sorted set (suspend-execution.lua), which it leaves too
  KEYS[13] the execution's run events (run-events.lua): those given, then `execution.ended`
           (end-record.lua); it expires with the record. When it does not exist, the step
           history went to the record's `history` field and the events given are only steps'
           starts and ends, none is written: they are read from the history and the record

  ARGV[1] the end, a JSON object:
    status              terminal status: SUCCESS, ERROR, TERMINATED_MANUALLY or TERMINATED_LIMIT
    now                 end time, epoch milliseconds, as a string (a Lua number would lose digits)
    retention_seconds   seconds to keep the record after it ends
    error               error message for ERROR ('' for none)
    id                  execution id
    lease               lease token of the worker ending it ('' when the caller holds no lease:
                        the API, a reconciler); with a lease, the execution ends only if no other
                        take happened since
    next_step           index of the step reached ('' keeps the stored one; a SUCCESS keeps none)
    untaken_by_host     host address of the worker, with untaken_by_worker
    untaken_by_worker   worker id ('' for none): given, the worker ran an instant Choreo without
                        taking the execution first, so it ends only if no worker has ever taken it
                        (no lease field at all, not even one let go of), and this worker is
                        recorded as the one that ran it
    window_ms           window length of the stored bytes, milliseconds
    bytes_elsewhere     true when the account's stored bytes are counted elsewhere (accept-execution.lua)
    worker_executions   name of a worker's set of the executions it holds, less the worker id
    ended_channel       channel on which to publish the end
    child_ended_channel channel on which to publish the end of a child execution
    termination_channel channel on which to publish the id of a descendant whose termination is
                        requested (its name has the prefix's hash tag: the script's slot)
    legacy_termination_channel  the same channel by its earlier name (termination-flag.lua)
    account             the execution's account
    history             the run history's key templates (history-index.lua)
    webhooks            the webhook outbox and the accounts' event counts (webhook-outbox.lua)
    history_first       step history: how many of the first events to keep
    history_last        step history: how many of the last events to keep
    run_events_bound    run events: how many the list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    publish             PUBLISH, or SPUBLISH on a Cluster: the command that publishes run events and ends
  ARGV[2] outputs, JSON ('' keeps the stored ones): an argument of its own, so that megabytes of
          outputs are not escaped into ARGV[1] and decoded out of it again
  ARGV[3] run events since the last write, one per line ('' for none)
  ARGV[4], ARGV[5], … step events since the last write, JSON (none or more)

  Returns { code, status, output bytes, woken, ended id, … } (ScriptReply in script-replies.ts)
   code     Done (1): this call ended the execution;
            NotRunning (-5): it had ended already (or is gone);
            Superseded (-6): nothing changed, it is RUNNING under another lease (or none, once
            handed back), or has been taken when `untaken_by_worker` says it was not
   status   the execution's status ('' when it does not exist)
   output bytes  when this call ended it, the bytes of the outputs it and the descendants it
            ended stored (charged to the account's stored bytes; with shards, the control slot's
            too: account-reservations.ts)
   woken    the ids of the parents suspended in a wait for a child that this end made due, one
            space between two ('' for none): their jobs are to be made due (end-record.lua)
   ended ids  when this call ended it: its id, then those of the descendants it ended
]]
--- @include "step-history.lua"
--- @include "run-events.lua"
--- @include "end-record.lua"
--- @include "terminate-descendants.lua"
--- @include "termination-flag.lua"
local args = cjson.decode(ARGV[1])
local outputs = ARGV[2]
-- end_record's state (end-record.lua), then the flag's earlier name.
local state = redis.call('HMGET', KEYS[1], 'status', 'terminate', 'lease', 'notify', 'idempotency', 'worker', 'parent', 'deadline', 'cancel')
if state[1] == false then
  return { -5, '' }
end
if state[1] ~= 'RUNNING' then
  return { -5, state[1] }
end
if args.untaken_by_worker ~= '' then
  if state[3] ~= false then
    return { -6, state[1] }
  end
elseif args.lease ~= '' and state[3] ~= args.lease then
  return { -6, state[1] }
end
local status = args.status
if termination_requested(state[2], state[9]) then
  status = 'TERMINATED_MANUALLY'
end
-- One HSET for every field the end writes.
local fields = { 'status', status, 'endtime', args.now }
if args.untaken_by_worker ~= '' then
  table.insert(fields, 'host')
  table.insert(fields, args.untaken_by_host)
  table.insert(fields, 'worker')
  table.insert(fields, args.untaken_by_worker)
end
if outputs ~= '' then
  table.insert(fields, 'output')
  table.insert(fields, outputs)
end
if args.next_step ~= '' and status ~= 'SUCCESS' then
  table.insert(fields, 'step')
  table.insert(fields, args.next_step)
end
if status == 'ERROR' then
  table.insert(fields, 'lasterror')
  table.insert(fields, args.error)
  table.insert(fields, 'errortime')
  table.insert(fields, args.now)
end
-- A run that wrote no history before its end (an instant run) keeps it in a field of the record,
-- which costs far less than a list of its own, when it fits the bound.
local first_event = 4
local events = #ARGV - first_event + 1
local history_in_record = false
if redis.call('EXISTS', KEYS[9]) == 0 and events <= args.history_first + args.history_last then
  history_in_record = true
  if events >= 1 then
    local history = '[' .. table.concat(ARGV, ',', first_event) .. ']'
    redis.call('HSET', KEYS[1], 'history', history)
  end
else
  append_step_events(KEYS[9], args.history_first, args.history_last, first_event, #ARGV)
end
-- A run that stored no run events before its end, whose history is all in the record and whose
-- end brings only its steps' starts and ends (an instant run), stores none: they are read from
-- its step history and its record (run-events.ts), which saves every such retained run a list.
if redis.call('EXISTS', KEYS[13]) == 1 or not history_in_record or string.find(ARGV[3], '{"type":"[^s]') then
  add_run_events(KEYS[13], ARGV[3], args.run_events_bound, args.run_events_channel, args.publish)
end
local ctx = ending_context(args, {
  running = KEYS[2],
  waiting = KEYS[10],
  waiting_for_call_back = KEYS[12],
  counts = KEYS[7],
  account_running = KEYS[3],
  stored_bytes = KEYS[4],
  executing = KEYS[5],
  rows = KEYS[6],
  record = KEYS[1],
  progress = KEYS[8],
  steps = KEYS[9],
  children = KEYS[11],
  events = KEYS[13],
  account = args.account,
})
ctx.ended = {}
ctx.ended_bytes = 0
ctx.woken = {}
end_record(ctx, args.id, state, status, fields, outputs)
-- Whatever the end, no child runs on for nobody: one still running is terminated with it.
terminate_descendants(ctx, args.id)
return { 1, status, ctx.ended_bytes, table.concat(ctx.woken, ' '), unpack(ctx.ended) }
