--[[
  Shared by the scripts that accept executions (accept-execution.lua, one with every option;
  accept-executions.lua, many plain ones at once): what accepting one execution checks and writes,
  as accept-execution.lua's header describes it, its KEYS by name in `k` and its named arguments
  in `args`.

  k: record, running, account_running, bytes_now, bytes_before, idempotency, rows, counts, parent,
     children, redriven, progress, parent_events (KEYS[1] to KEYS[13] of accept-execution.lua;
     those a plain run never touches may be absent)
  argv[first..last]: the record's field, value pairs; argv[last + 1..]: a redrive's progress
     entries, address, value, …

  Returns the reply accept-execution.lua returns.
]]
--- @include "list-row.lua"
--- @include "history-index.lua"
--- @include "termination-flag.lua"
--- @include "run-events.lua"
--- @include "webhook-outbox.lua"
--- @include "stored-bytes-budget.lua"
local function accept_record(k, args, argv, first, last)
  if redis.call('EXISTS', k.record) == 1 then
    if redis.call('HGET', k.record, 'starttime') == args.starttime then
      return 1
    end
    return -1
  end
  local entry
  if args.request_digest ~= '' then
    local earlier = redis.call('GET', k.idempotency)
    if earlier then
      local space = string.find(earlier, ' ', 1, true)
      return { 3, string.sub(earlier, 1, space - 1), string.sub(earlier, space + 1) == args.request_digest and 1 or 0 }
    end
    entry = args.id .. ' ' .. args.request_digest
  end
  local redrive_of = args.redrive_of or ''
  if redrive_of ~= '' then
    local redriven = redis.call('HMGET', k.redriven, 'status', 'redrivenBy')
    if redriven[1] ~= 'ERROR' and redriven[1] ~= 'TERMINATED_LIMIT' then
      return { -9, redriven[1] or '' }
    end
    if redriven[2] and redis.call('HGET', args.execution_prefix .. redriven[2], 'status') == 'RUNNING' then
      return { -10, redriven[2] }
    end
  end
  local quota = args.max_running
  if quota > 0 and redis.call('SCARD', k.account_running) >= quota then
    return -2
  end
  local size = 0
  for i = first + 1, last, 2 do
    size = size + string.len(argv[i])
  end
  for i = last + 1, #argv do
    size = size + string.len(argv[i])
  end
  if entry then
    -- The entry, and the record's field that names it.
    size = size + string.len(k.idempotency) * 2 + string.len(entry)
  end
  local refused = over_budget(k.bytes_now, k.bytes_before, args, size)
  if refused then
    return refused
  end
  redis.call('HSET', k.record, unpack(argv, first, last))
  if redrive_of ~= '' then
    redis.call('HSET', k.redriven, 'redrivenBy', args.id)
    -- In slices: unpack of many thousand arguments would overflow Lua's stack.
    for from = last + 1, #argv, 2000 do
      redis.call('HSET', k.progress, unpack(argv, from, math.min(from + 1999, #argv)))
    end
  end
  local row = args.list_row
  for i = first, last, 2 do
    if argv[i] == 'parent' then
      local parent = redis.call('HMGET', k.parent, 'status', 'terminate', 'cancel')
      -- A parent without a record (a lost one) refuses nothing: only one known to have stopped does.
      if parent[1] == false or (parent[1] == 'RUNNING' and not termination_requested(parent[2], parent[3])) then
        redis.call('SADD', k.children, args.id)
        add_run_events(k.parent_events, args.child_event, args.run_events_bound, args.run_events_channel, args.publish)
      else
        redis.call('HSET', k.record, 'terminate', '1', 'cancel', '1')
        local starttime, host, worker, choreo = string.match(row, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t[^\t]*\t(.*)$')
        row = list_row(starttime, host, worker, true, choreo)
      end
      break
    end
  end
  if entry then
    redis.call('SET', k.idempotency, entry)
    redis.call('HSET', k.record, 'idempotency', k.idempotency)
  end
  redis.call('ZADD', k.running, args.starttime, args.id)
  redis.call('SADD', k.account_running, args.id)
  redis.call('HSET', k.rows, args.id, row)
  redis.call('HINCRBY', k.counts, 'started', 1)
  index_history(args.history, args.id, args.starttime, args.account, args.choreo)
  queue_webhook_event(args.webhooks, 'start', args.account, args.id, { 'execution.started' }, k.record, args.starttime)
  if not args.bytes_elsewhere and redis.call('INCRBY', k.bytes_now, size) == size then
    redis.call('PEXPIRE', k.bytes_now, 2 * args.window_ms)
  end
  return 1
end
