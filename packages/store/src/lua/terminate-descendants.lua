--[[
  Shared by request-termination.lua and end-execution.lua, included by each of them: requests the
  termination of every RUNNING descendant of an execution (its children, their children…), breadth
  first, through the sets of running children (keys.ts, executionChildren). A descendant no worker
  holds (queued, deferred, handed back, suspended in a durable wait: no lease) ends at once, as a
  DELETE ends a queued run; one a worker holds gets its termination flag and the message to its
  worker, and stops after its current step. A descendant past its own deadline (never later than its
  parent's) ends TERMINATED_LIMIT instead, or, held, is left to its worker, which ends it at its
  deadline; any other ends TERMINATED_MANUALLY.

  At most MAX_DESCENDANTS are visited in one call. Depth is bounded (MAX_CHILD_DEPTH) and a parent
  has a child running per `choreo.run` step it is running, so a tree that large is rare; past it,
  the descendants not visited are not flagged by this call: those below a descendant that ends
  later are terminated by that end (end-execution.lua cascades), and none outlives its deadline.

  `ctx` as end_record's, with `termination_channel` and `legacy_termination_channel`, on which a
  flagged descendant's id is published.
  terminate_descendants returns how many descendants it visited. request-termination.lua applies
  terminate_running, the same rule, to the execution a DELETE names.
]]
--- @include "list-row.lua"
--- @include "end-record.lua"
--- @include "termination-flag.lua"
local MAX_DESCENDANTS = 1000

-- The fields terminate_running reads: end_record's state, what its list row shows, then the
-- flag's earlier name (termination-flag.lua).
local TERMINATION_FIELDS = { 'status', 'terminate', 'lease', 'notify', 'idempotency', 'worker', 'parent', 'deadline', 'starttime', 'host', 'choreo', 'cancel' }

-- Terminates execution `id`, read RUNNING with `state` (TERMINATION_FIELDS): ended at once when no
-- worker holds it, TERMINATED_LIMIT when `overdue`, else TERMINATED_MANUALLY; flagged and its
-- worker told when one holds it, unless `overdue`: its worker ends it at its deadline. Returns true
-- when it ended it.
local function terminate_running(ctx, id, state, overdue)
  local held = state[3] and state[3] ~= ''
  if not held then
    if overdue then
      end_record(ctx, id, state, 'TERMINATED_LIMIT', { 'status', 'TERMINATED_LIMIT', 'endtime', ctx.endtime }, '')
    else
      end_record(ctx, id, state, 'TERMINATED_MANUALLY', { 'status', 'TERMINATED_MANUALLY', 'endtime', ctx.endtime, 'terminate', '1', 'cancel', '1' }, '')
    end
    return true
  end
  if overdue then
    return false
  end
  if not termination_requested(state[2], state[12]) then
    redis.call('HSET', ctx.record(id), 'terminate', '1', 'cancel', '1')
    redis.call('HSET', ctx.rows, id, list_row(state[9], state[10] or '', state[6] or '', true, state[11]))
  end
  -- Told again when flagged before: a message its worker missed the first time costs no more than
  -- a step.
  redis.call('PUBLISH', ctx.termination_channel, id)
  -- Workers of earlier versions listen on the channel's earlier name (termination-flag.lua).
  redis.call('PUBLISH', ctx.legacy_termination_channel, id)
  return false
end

local function terminate_descendants(ctx, root)
  local pending = redis.call('SMEMBERS', ctx.children(root))
  local visited = 0
  while visited < #pending and visited < MAX_DESCENDANTS do
    visited = visited + 1
    local id = pending[visited]
    local state = redis.call('HMGET', ctx.record(id), unpack(TERMINATION_FIELDS))
    if state[1] == 'RUNNING' then
      for _, child in ipairs(redis.call('SMEMBERS', ctx.children(id))) do
        pending[#pending + 1] = child
      end
      local deadline = tonumber(state[8] or '0') or 0
      local overdue = deadline > 0 and deadline <= ctx.now
      terminate_running(ctx, id, state, overdue)
    end
  end
  return visited
end
