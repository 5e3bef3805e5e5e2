--[[
  Shared by the scripts that end executions (end-execution.lua; request-termination.lua and
  end-execution.lua for the descendants terminate-descendants.lua ends), included by each of them:
  the writes that move one RUNNING record to a terminal status, given its state: the record's
  fields `status terminate lease notify idempotency worker parent deadline`, read in this order. A
  terminal status is never overwritten: callers end only a record they read RUNNING.

  `ctx` names the keys: `running`, `waiting`, `waiting_for_call_back`, `counts` (all accounts),
  `account_running`, `stored_bytes`, `executing`, `rows` (the account's: every descendant runs for
  its root's account), functions of an id `record`, `progress`, `steps`, `children`, `events`;
  `worker_executions` (less the worker id), `ended_channel`, `child_ended_channel`,
  `run_events_channel`, `run_events_bound` and `publish`, the command that publishes run events
  and ends (run-events.lua); `retention`
  (seconds), `window_ms`, `bytes_elsewhere` (the outputs' bytes are charged elsewhere: `stored_bytes`
  is left alone), `now` (epoch milliseconds) and `endtime` (the same, as given: a Lua
  number would lose digits); `account` (the root's) and `history`, the run history's key
  templates (history-index.lua), whose RUNNING index the record leaves for its status's;
  `webhooks`, where the end is queued for webhooks when something may want it (webhook-outbox.lua).

  The run's last run event, `execution.ended`, is added with the end itself: a watcher that reads
  it finds the record ended. A run whose list of events does not exist gets none: its events are
  read from its step history and its record.

  Returns the bytes of outputs the end stored, charged to the account's stored bytes; with
  `ctx.ended` (a list) and `ctx.ended_bytes`, appends the id to the one and the bytes to the other,
  so that a caller learns every execution one script ended, its descendants among them. A child's
  end (`notify` = `parent`) makes its parent due at once when the parent is suspended (in the
  waiting set, scored `now` unless due sooner); with `ctx.woken` (a list), the parent's id is
  appended to it, for the caller to make the parent's delayed job due.
]]
--- @include "history-index.lua"
--- @include "webhook-outbox.lua"
--- @include "run-events.lua"
-- The name of another execution's key of the same kind as `key`, the key of execution `id`.
local function key_like(key, id)
  local from, to = string.find(key, id, 1, true)
  local before, after = string.sub(key, 1, from - 1), string.sub(key, to + 1)
  return function(other)
    return before .. other .. after
  end
end

-- The `ctx` of a script that ends executions, from its named arguments (those they all take:
-- endingArguments in execution-store.ts) and `keys`: the all-accounts and the account's keys
-- named as in `ctx`, the execution's own `record`, `progress`, `steps`, `children` and `events`,
-- and its root's `account`.
local function ending_context(args, keys)
  return {
    running = keys.running,
    waiting = keys.waiting,
    waiting_for_call_back = keys.waiting_for_call_back,
    counts = keys.counts,
    account_running = keys.account_running,
    stored_bytes = keys.stored_bytes,
    executing = keys.executing,
    rows = keys.rows,
    record = key_like(keys.record, args.id),
    progress = key_like(keys.progress, args.id),
    steps = key_like(keys.steps, args.id),
    children = key_like(keys.children, args.id),
    events = key_like(keys.events, args.id),
    worker_executions = args.worker_executions,
    ended_channel = args.ended_channel,
    child_ended_channel = args.child_ended_channel,
    run_events_channel = args.run_events_channel,
    publish = args.publish,
    run_events_bound = args.run_events_bound,
    termination_channel = args.termination_channel,
    legacy_termination_channel = args.legacy_termination_channel,
    retention = args.retention_seconds,
    window_ms = args.window_ms,
    bytes_elsewhere = args.bytes_elsewhere,
    now = tonumber(args.now),
    endtime = args.now,
    account = keys.account,
    history = args.history,
    webhooks = args.webhooks,
  }
end

-- `fields`: the field/value list written (status and endtime first); `output`: the outputs written
-- among them ('' when the stored ones are kept).
local function end_record(ctx, id, state, status, fields, output)
  local record = ctx.record(id)
  redis.call('HSET', record, unpack(fields))
  -- The checkpoint is only needed to resume a run; an ended one keeps its outputs alone. What only
  -- a running run reads (its deadline, whether to store results, the filters its end applied, the
  -- address its URLs are made under, its depth for starting children) goes too: every retained run
  -- would keep it for nothing. A run that failed or ran out of time may be redriven
  -- (accept-execution.lua): it keeps what it completed (its progress, an earlier version's results)
  -- and the options it ran with, for as long as it is retained. A run that succeeded reached its
  -- last step: the step reached says nothing more.
  if status == 'ERROR' or status == 'TERMINATED_LIMIT' then
    redis.call('HDEL', record, 'lease', 'notify', 'letgo', 'released', 'deferrals', 'cursor', 'wait', 'deadline', 'base', 'depth')
    redis.call('EXPIRE', ctx.progress(id), ctx.retention)
  else
    redis.call('HDEL', record, 'results', 'lease', 'notify', 'letgo', 'released', 'deferrals', 'cursor', 'wait', 'deadline', 'store', 'filters', 'base', 'depth')
    if status == 'SUCCESS' then
      redis.call('HDEL', record, 'step')
    end
    redis.call('UNLINK', ctx.progress(id))
  end
  redis.call('EXPIRE', record, ctx.retention)
  redis.call('EXPIRE', ctx.steps(id), ctx.retention)
  local events = ctx.events(id)
  if redis.call('EXISTS', events) == 1 then
    local ended = '{"type":"execution.ended","time":' .. cjson.encode(ctx.endtime) .. '}'
    add_run_events(events, ended, ctx.run_events_bound, ctx.run_events_channel, ctx.publish)
    redis.call('EXPIRE', events, ctx.retention)
  else
    -- A run without a list of events has them read from its step history and its record
    -- (run-events.ts); its watchers are told all the same.
    redis.call(ctx.publish, ctx.run_events_channel, events)
  end
  redis.call('EXPIRE', ctx.children(id), ctx.retention)
  if state[5] then
    redis.call('EXPIRE', state[5], ctx.retention)
  end
  redis.call('ZREM', ctx.running, id)
  index_history_end(ctx.history, id, redis.call('HGET', record, 'starttime'), ctx.account, status)
  redis.call('ZREM', ctx.waiting, id)
  redis.call('ZREM', ctx.waiting_for_call_back, id)
  redis.call('SREM', ctx.account_running, id)
  redis.call('HDEL', ctx.rows, id)
  redis.call('HINCRBY', ctx.counts, 'ended:' .. status, 1)
  -- ERROR and TERMINATED_LIMIT are failures too: a subscription to either type wants them.
  local types = { 'execution.ended' }
  if status == 'ERROR' or status == 'TERMINATED_LIMIT' then
    types[2] = 'execution.failed'
  end
  queue_webhook_event(ctx.webhooks, 'end', ctx.account, id, types, record, ctx.endtime)
  -- Only a run a worker has taken (a lease field, even handed back) can be in the executing set.
  if state[3] ~= false then
    redis.call('SREM', ctx.executing, id)
  end
  if state[6] and state[6] ~= '' then
    redis.call('SREM', ctx.worker_executions .. state[6], id)
  end
  -- A parent's set of children holds those still running.
  if state[7] and state[7] ~= '' then
    redis.call('SREM', ctx.children(state[7]), id)
  end
  local output_bytes = string.len(output)
  if output == '' then
    output_bytes = redis.call('HSTRLEN', record, 'output')
  end
  if output_bytes > 0 and not ctx.bytes_elsewhere and redis.call('INCRBY', ctx.stored_bytes, output_bytes) == output_bytes then
    redis.call('PEXPIRE', ctx.stored_bytes, 2 * ctx.window_ms)
  end
  if state[4] == '1' then
    -- The large fields decide first: encoding megabytes of outputs only to find them too large for
    -- the message would hold Redis, which serves every account, for nothing.
    -- A failed run keeps its results (for a redrive): they count too.
    local large = output_bytes + redis.call('HSTRLEN', record, 'inputs') + redis.call('HSTRLEN', record, 'results')
    local encoded = ''
    if large <= 65536 then
      encoded = cjson.encode(redis.call('HGETALL', record))
    end
    if large <= 65536 and string.len(encoded) <= 65536 then
      redis.call(ctx.publish, ctx.ended_channel, id .. '\n' .. encoded)
    else
      redis.call(ctx.publish, ctx.ended_channel, id)
    end
  elseif state[4] == 'parent' then
    redis.call(ctx.publish, ctx.child_ended_channel, id)
    -- A parent suspended while its children run (suspend-execution.lua) is due now, in the same
    -- write as the child's end: whoever ended the child then makes its job due (`ctx.woken`), and
    -- a parent whose job stayed delayed is found overdue by the reconciler.
    if state[7] and state[7] ~= '' then
      local due = redis.call('ZSCORE', ctx.waiting, state[7])
      if due then
        if tonumber(due) > ctx.now then
          redis.call('ZADD', ctx.waiting, ctx.now, state[7])
        end
        if ctx.woken then
          ctx.woken[#ctx.woken + 1] = state[7]
        end
      end
    end
  end
  if ctx.ended then
    ctx.ended[#ctx.ended + 1] = id
    ctx.ended_bytes = ctx.ended_bytes + output_bytes
  end
  return output_bytes
end
