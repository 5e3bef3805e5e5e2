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

  The execution leaves the set of the executions its worker holds (keys.ts, workerExecutions).

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status cancel lease notify
  idempotency worker`; writes `status endtime`, `history` (see KEYS[9]), `output step` when given, `host worker` for an
  untaken instant run, `lasterror errortime` on ERROR; deletes `results lease notify released
  deferrals cursor`, and the progress hash (record-progress.lua), only needed to resume.

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
local state = redis.call('HMGET', KEYS[1], 'status', 'cancel', 'lease', 'notify', 'idempotency', 'worker')
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
redis.call('HSET', KEYS[1], unpack(fields))
-- The checkpoint is only needed to resume a run; an ended one keeps its outputs alone.
redis.call('HDEL', KEYS[1], 'results', 'lease', 'notify', 'released', 'deferrals', 'cursor')
redis.call('UNLINK', KEYS[8])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
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
redis.call('EXPIRE', KEYS[9], tonumber(ARGV[3]))
if state[5] then
  redis.call('EXPIRE', state[5], tonumber(ARGV[3]))
end
redis.call('ZREM', KEYS[2], ARGV[7])
redis.call('ZREM', KEYS[10], ARGV[7])
redis.call('SREM', KEYS[3], ARGV[7])
redis.call('HDEL', KEYS[6], ARGV[7])
redis.call('HINCRBY', KEYS[7], 'ended:' .. status, 1)
-- Only a run a worker has taken (a lease field, even handed back) can be in the executing set.
if state[3] ~= false then
  redis.call('SREM', KEYS[5], ARGV[7])
end
if state[6] and state[6] ~= '' then
  redis.call('SREM', ARGV[13] .. state[6], ARGV[7])
end
local outputBytes = string.len(ARGV[4])
if ARGV[4] == '' then
  outputBytes = redis.call('HSTRLEN', KEYS[1], 'output')
end
if outputBytes > 0 and redis.call('INCRBY', KEYS[4], outputBytes) == outputBytes then
  redis.call('PEXPIRE', KEYS[4], 2 * tonumber(ARGV[12]))
end
if state[4] == '1' then
  -- The large fields decide first: encoding megabytes of outputs only to find them too large for
  -- the message would hold Redis, which serves every account, for nothing.
  local large = outputBytes + redis.call('HSTRLEN', KEYS[1], 'inputs')
  local record = ''
  if large <= 65536 then
    record = cjson.encode(redis.call('HGETALL', KEYS[1]))
  end
  if large <= 65536 and string.len(record) <= 65536 then
    redis.call('PUBLISH', ARGV[6], ARGV[7] .. '\n' .. record)
  else
    redis.call('PUBLISH', ARGV[6], ARGV[7])
  end
elseif state[4] == 'parent' then
  redis.call('PUBLISH', ARGV[14], ARGV[7])
end
return { 1, status }
