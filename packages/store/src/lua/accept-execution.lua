--[[
  Accepts an execution: creates its record in RUNNING status, waiting for a take (host ''), and
  indexes it as running, unless the account already has its quota of running executions, or
  storing it would take the account past its budget of stored bytes.

  The budget counts the bytes of the values an account's executions store (records when accepted,
  outputs at the end) over the retention period, so that what one account keeps in Redis stays
  bounded. It is a sliding window made of two fixed windows as long as the retention: this one,
  and the one before it weighted by how much of it still falls within the last retention period.

  Record fields (RECORD_FIELDS in execution-record.ts): all of a new record, given in ARGV;
  `idempotency` (idempotencyEntry) and `notify` (notifyEnd, among ARGV when a caller waits);
  `terminate cancel` (terminationRequested, termination-flag.lua) for a child refused its run,
  below. Of a child's parent: reads `status terminate cancel`.

  A child execution (a `parent` among the fields) enters its parent's set of running children,
  through which its parent's termination or end terminates it (terminate-descendants.lua). A
  child accepted when its parent has ended or its termination has been requested (the parent's
  worker was starting it when the request came) is accepted with its own termination requested
  instead: whoever takes it ends it before its first step, and its parent, stopping, ends it.

  A redrive (`redrive_of` given) is accepted only while the execution it redrives has ended ERROR
  or TERMINATED_LIMIT and no earlier redrive of it is still RUNNING (one at a time); the record it
  redrives then names it (`redrivenBy`, the latest), and the new one starts from the progress given
  (the entries of the old run's progress a redrive keeps, redrive-progress.ts), which count against
  the budget like the record's values. Of the redriven record: reads `status redrivenBy`, writes
  `redrivenBy`; of its previous redrive: reads `status`.

  KEYS[1] execution hash
  KEYS[2] running sorted set (all accounts)
  KEYS[3] running set of the execution's account
  KEYS[4] the account's stored bytes in the current window
  KEYS[5] the account's stored bytes in the window before it
  KEYS[6] the entry of the run's Idempotency-Key in its account (untouched without one)
  KEYS[7] the account's list rows of RUNNING executions
  KEYS[8] the service's execution counters (field `started` counts this acceptance)
  KEYS[9] the parent's execution hash (untouched unless the execution is a child)
  KEYS[10] the parent's set of running children (untouched unless the execution is a child)
  KEYS[11] the redriven execution's hash (untouched unless the execution is a redrive)
  KEYS[12] the execution's progress hash (untouched unless the execution is a redrive)
  KEYS[13] the parent's run events (run-events.lua): a child accepted here adds `child_event`

  ARGV[1] the acceptance, a JSON object:
    id              execution id
    starttime       start time, epoch milliseconds, as a string (as the record keeps it)
    max_running     maximum running executions for the account (0: no limit)
    budget          budget of stored bytes for the account (0: no limit)
    window_ms       window length, milliseconds
    window_start    start of the current window, epoch milliseconds
    request_digest  digest of what the run asks for (Choreo, inputs, options), or '' without an
                    Idempotency-Key; its entry keeps `<execution id> <digest>` for as long as the
                    record is kept: without expiry while it runs, as the record; the record names
                    the entry (field `idempotency`), and the end of the run gives it the record's
                    expiry
    account         the execution's account
    choreo          the execution's Choreo id
    history         the run history's key templates (history-index.lua), whose every index the
                    execution enters
    webhooks        where the start is queued for the account's webhooks, when one of them
                    wants it (webhook-outbox.lua)
    list_row        the execution's list row (starttime, host, worker, termination flag, choreo,
                    tab-separated)
    child_event     a child's `child.started` run event for its parent ('' for none)
    run_events_bound    run events: how many the list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    redrive_of      the id of the execution this one redrives ('' for none)
    execution_prefix  the name of an execution's hash less its id (its previous redrive's)
    progress_entries  how many progress entries end ARGV (0 for none)
  ARGV[2..] field, value, field, value … of the record: arguments of their own, so that the
          inputs are not escaped into ARGV[1] and decoded out of it again; then, for a redrive,
          address, value, address, value … of its progress entries (progress_entries of them)

  Returns (ScriptReply in script-replies.ts)
   Done (1)                 accepted, or accepted already by this very call: a client that lost
                            the reply on a dropped connection sends it again, and ids are random,
                            so a record with the same id and start time is this one
   IdExists (-1)            another execution has this id
   QuotaExceeded (-2)       the account is at its quota of running executions
   {BudgetExceeded (-3), wait}  the account is at its budget of stored bytes; wait: seconds until
                            it may have room
   LargerThanBudget (-4)    the record alone is larger than the budget: it would never fit
   {Replay (3), id, same}   nothing accepted: the Idempotency-Key started execution `id` already;
                            same: 1 when it asked for the same run, 0 when for another
   {NotRedrivable (-9), status}  nothing accepted: the execution to redrive is not ERROR or
                            TERMINATED_LIMIT (status '' when it is gone)
   {RedriveRunning (-10), id}  nothing accepted: redrive `id` of it is still RUNNING
]]
--- @include "list-row.lua"
--- @include "history-index.lua"
--- @include "termination-flag.lua"
--- @include "run-events.lua"
--- @include "webhook-outbox.lua"
local args = cjson.decode(ARGV[1])
-- The record's fields and values, ARGV[FIRST_FIELD..]: its values are what the budget counts.
local FIRST_FIELD = 2
-- The last of the record's values; the redrive's progress entries follow.
local LAST_FIELD = #ARGV - 2 * (args.progress_entries or 0)
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'starttime') == args.starttime then
    return 1
  end
  return -1
end
local entry
if args.request_digest ~= '' then
  local earlier = redis.call('GET', KEYS[6])
  if earlier then
    local space = string.find(earlier, ' ', 1, true)
    return { 3, string.sub(earlier, 1, space - 1), string.sub(earlier, space + 1) == args.request_digest and 1 or 0 }
  end
  entry = args.id .. ' ' .. args.request_digest
end
local redrive_of = args.redrive_of or ''
if redrive_of ~= '' then
  local redriven = redis.call('HMGET', KEYS[11], 'status', 'redrivenBy')
  if redriven[1] ~= 'ERROR' and redriven[1] ~= 'TERMINATED_LIMIT' then
    return { -9, redriven[1] or '' }
  end
  if redriven[2] and redis.call('HGET', args.execution_prefix .. redriven[2], 'status') == 'RUNNING' then
    return { -10, redriven[2] }
  end
end
local quota = args.max_running
if quota > 0 and redis.call('SCARD', KEYS[3]) >= quota then
  return -2
end
local budget = args.budget
local size = 0
for i = FIRST_FIELD + 1, LAST_FIELD, 2 do
  size = size + string.len(ARGV[i])
end
for i = LAST_FIELD + 1, #ARGV do
  size = size + string.len(ARGV[i])
end
if entry then
  -- The entry, and the record's field that names it.
  size = size + string.len(KEYS[6]) * 2 + string.len(entry)
end
if budget > 0 then
  if size > budget then
    return -4
  end
  local stored = redis.call('MGET', KEYS[4], KEYS[5])
  local current = tonumber(stored[1] or '0')
  local previous = tonumber(stored[2] or '0')
  local window = args.window_ms
  local elapsed = tonumber(args.starttime) - args.window_start
  local room = budget - current - size
  if room < previous * (window - elapsed) / window then
    -- The previous window's share shrinks as this one goes on; what this one holds waits for
    -- the next window, and shrinks through that one in turn.
    local wait
    if room >= 0 then
      wait = window * (1 - room / previous) - elapsed
    else
      wait = window - elapsed + window * math.min(1, -room / math.max(current, 1))
    end
    return { -3, math.max(1, math.ceil(wait / 1000)) }
  end
end
redis.call('HSET', KEYS[1], unpack(ARGV, FIRST_FIELD, LAST_FIELD))
if redrive_of ~= '' then
  redis.call('HSET', KEYS[11], 'redrivenBy', args.id)
  -- In slices: unpack of many thousand arguments would overflow Lua's stack.
  for first = LAST_FIELD + 1, #ARGV, 2000 do
    redis.call('HSET', KEYS[12], unpack(ARGV, first, math.min(first + 1999, #ARGV)))
  end
end
local row = args.list_row
for i = FIRST_FIELD, LAST_FIELD, 2 do
  if ARGV[i] == 'parent' then
    local parent = redis.call('HMGET', KEYS[9], 'status', 'terminate', 'cancel')
    -- A parent without a record (a lost one) refuses nothing: only one known to have stopped does.
    if parent[1] == false or (parent[1] == 'RUNNING' and not termination_requested(parent[2], parent[3])) then
      redis.call('SADD', KEYS[10], args.id)
      add_run_events(KEYS[13], args.child_event, args.run_events_bound, args.run_events_channel)
    else
      redis.call('HSET', KEYS[1], 'terminate', '1', 'cancel', '1')
      local starttime, host, worker, choreo = string.match(row, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t[^\t]*\t(.*)$')
      row = list_row(starttime, host, worker, true, choreo)
    end
    break
  end
end
if entry then
  redis.call('SET', KEYS[6], entry)
  redis.call('HSET', KEYS[1], 'idempotency', KEYS[6])
end
redis.call('ZADD', KEYS[2], args.starttime, args.id)
redis.call('SADD', KEYS[3], args.id)
redis.call('HSET', KEYS[7], args.id, row)
redis.call('HINCRBY', KEYS[8], 'started', 1)
index_history(args.history, args.id, args.starttime, args.account, args.choreo)
queue_webhook_event(args.webhooks, 'start', args.account, args.id, { 'execution.started' }, KEYS[1], args.starttime)
if redis.call('INCRBY', KEYS[4], size) == size then
  redis.call('PEXPIRE', KEYS[4], 2 * args.window_ms)
end
return 1
