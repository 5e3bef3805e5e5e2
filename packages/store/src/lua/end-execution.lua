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
  like KEYS[1], KEYS[8], KEYS[9] and KEYS[11] with their ids in place of ARGV[7].

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status cancel lease notify
  idempotency worker parent deadline`; writes `status endtime`, `history` (see KEYS[9]), `output step` when given, `host worker` for an
  untaken instant run, `lasterror errortime` on ERROR; deletes `results lease notify released
  deferrals cursor`, and the progress hash (record-progress.lua), only needed to resume. Of
  descendants: reads and writes as request-termination.lua does.

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
  KEYS[12] the channel on which to publish the id of a descendant whose termination is requested:
           a channel, not a key, given among KEYS because the step events end ARGV (its name has
           the prefix's hash tag, so a Cluster finds it in the script's slot)
  KEYS[13] the waiting-for-call-back sorted set (suspend-execution.lua), which it leaves too

  ARGV[1] terminal status: SUCCESS, ERROR, TERMINATED_MANUALLY or TERMINATED_LIMIT
  ARGV[2] end time, epoch milliseconds
  ARGV[3] seconds to keep the record after it ends
  ARGV[4] outputs, JSON ('' keeps the stored ones)
  ARGV[5] error message for ERROR ('' for none)
  ARGV[6] channel on which to publish the end
  ARGV[7] execution id
  ARGV[8] lease token of the worker ending it ('' when the caller holds no lease: the API, a
          reconciler); with a lease, the execution ends only if no other take happened since
  ARGV[9] index of the step reached ('' keeps the stored one)
  ARGV[10] host address of the worker, with ARGV[11]
  ARGV[11] worker id ('' for none): given, the worker ran an instant Choreo without taking the
          execution first, so it ends only if no worker has ever taken it (no lease field at all,
          not even a handed-back one), and this worker is recorded as the one that ran it
  ARGV[12] window length of the stored bytes, milliseconds
  ARGV[13] name of a worker's set of the executions it holds, less the worker id
  ARGV[14] channel on which to publish the end of a child execution
  ARGV[15] step history: how many of the first events to keep, with ARGV[16]
  ARGV[16] step history: how many of the last events to keep
  ARGV[17], ARGV[18], … step events since the last write, JSON (none or more)

  Returns { code, status } (ScriptReply in script-replies.ts)
   code     Done (1): this call ended the execution;
            NotRunning (-5): it had ended already (or is gone);
            Superseded (-6): nothing changed, it is RUNNING under another lease (or none, once
            handed back), or has been taken when ARGV[11] says it was not
   status   the execution's status ('' when it does not exist)
]]
--- @include "step-history.lua"
--- @include "end-record.lua"
--- @include "terminate-descendants.lua"
-- end_record's state (end-record.lua).
local state = redis.call('HMGET', KEYS[1], 'status', 'cancel', 'lease', 'notify', 'idempotency', 'worker', 'parent', 'deadline')
if state[1] == false then
  return { -5, '' }
end
if state[1] ~= 'RUNNING' then
  return { -5, state[1] }
end
if ARGV[11] ~= '' then
  if state[3] ~= false then
    return { -6, state[1] }
  end
elseif ARGV[8] ~= '' and state[3] ~= ARGV[8] then
  return { -6, state[1] }
end
local status = ARGV[1]
if state[2] == '1' then
  status = 'TERMINATED_MANUALLY'
end
-- One HSET for every field the end writes.
local fields = { 'status', status, 'endtime', ARGV[2] }
if ARGV[11] ~= '' then
  table.insert(fields, 'host')
  table.insert(fields, ARGV[10])
  table.insert(fields, 'worker')
  table.insert(fields, ARGV[11])
end
if ARGV[4] ~= '' then
  table.insert(fields, 'output')
  table.insert(fields, ARGV[4])
end
if ARGV[9] ~= '' then
  table.insert(fields, 'step')
  table.insert(fields, ARGV[9])
end
if status == 'ERROR' then
  table.insert(fields, 'lasterror')
  table.insert(fields, ARGV[5])
  table.insert(fields, 'errortime')
  table.insert(fields, ARGV[2])
end
-- A run that wrote no history before its end (an instant run) keeps it in a field of the record,
-- which costs far less than a list of its own, when it fits the bound.
if redis.call('EXISTS', KEYS[9]) == 0 then
  if #ARGV >= 17 and #ARGV - 16 <= tonumber(ARGV[15]) + tonumber(ARGV[16]) then
    local history = '[' .. table.concat(ARGV, ',', 17) .. ']'
    redis.call('HSET', KEYS[1], 'history', history)
  else
    append_step_events(KEYS[9], tonumber(ARGV[15]), tonumber(ARGV[16]), 17, #ARGV)
  end
else
  append_step_events(KEYS[9], tonumber(ARGV[15]), tonumber(ARGV[16]), 17, #ARGV)
end
local ctx = {
  running = KEYS[2],
  waiting = KEYS[10],
  waiting_for_call_back = KEYS[13],
  counts = KEYS[7],
  account_running = KEYS[3],
  stored_bytes = KEYS[4],
  executing = KEYS[5],
  rows = KEYS[6],
  record = key_like(KEYS[1], ARGV[7]),
  progress = key_like(KEYS[8], ARGV[7]),
  steps = key_like(KEYS[9], ARGV[7]),
  children = key_like(KEYS[11], ARGV[7]),
  worker_executions = ARGV[13],
  ended_channel = ARGV[6],
  child_ended_channel = ARGV[14],
  termination_channel = KEYS[12],
  retention = tonumber(ARGV[3]),
  window_ms = tonumber(ARGV[12]),
  now = tonumber(ARGV[2]),
  endtime = ARGV[2],
}
end_record(ctx, ARGV[7], state, status, fields, ARGV[4])
-- Whatever the end, no child runs on for nobody: one still running is terminated with it.
terminate_descendants(ctx, ARGV[7])
return { 1, status }
