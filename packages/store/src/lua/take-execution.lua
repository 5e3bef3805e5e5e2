--[[
  A worker takes an execution: records its host, its worker id and a lease (a token unique to
  this take) when the execution is still RUNNING, and returns the whole record either way, so
  the worker can skip an ended one. The lease fences off any earlier holder: its checkpoints,
  its end and its hand-back no longer apply once another take has happened.

  With a limit on the executions one account may have executing at once, the take also enters the
  execution in its account's executing set, or defers it while that set is full, so that one
  account's backlog cannot hold every worker. The set is checked before it defers: a member whose
  record has ended, been handed back (no lease) or gone no longer counts and is taken out, so an
  end missed by a crash or a deleted record cannot hold a place for ever. Sixteen members at random
  are checked, not all: a large limit must not make every deferral read as many records, and
  members left behind are rare, so those deferrals that follow find them soon enough. A run already
  in the set (taken again after its worker died), a run whose termination was requested and a run
  past its deadline are taken all the same: each ends, or goes on, at once. The names of the set and
  of the members' records are the prefixes given, with the account or the id appended: keys of the
  same prefix, so in the same Cluster slot, though not among KEYS.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status id account terminate deadline
  starttime choreo worker cancel`, and `status lease` of the executing set's members; writes `host
  worker lease`, or `deferrals` when deferred.

  The take is published in the worker's set of the executions it holds (keys.ts, workerExecutions)
  at once, and the execution leaves the set of the worker that held it before (one that lost its
  job), so that an operator finds a run on its worker from the moment it is taken.

  KEYS[1] execution hash

  ARGV[1] the take, a JSON object:
    host                   host address of the worker
    worker                 worker id
    lease                  lease token
    max_executing          most executions of one account executing at once (0: no limit)
    now                    epoch milliseconds
    account_executing      name of an account's executing set, less the account
    account_running        name of an account's running set, less the account
    account_rows           name of an account's list rows of RUNNING executions, less the account
    execution_prefix       name of an execution hash, less the id
    worker_executions      name of a worker's set of the executions it holds, less the worker id
    worker_executions_ttl  milliseconds the worker's set lives without a heartbeat (the heartbeat's
                           TTL)
    waiting                name of the waiting sorted set (suspend-execution.lua), which a RUNNING
                           execution leaves when it is taken (or deferred): it no longer waits for
                           its due time
    waiting_for_call_back  name of the waiting-for-call-back sorted set, which it leaves with the
                           waiting one

  Returns (ScriptReply in script-replies.ts)
   the record as a flat field/value list (strings), taken when its status is RUNNING, ended
   otherwise; an empty list when it does not exist
   {Deferred (-7), deferrals, waiting, deadline}  not taken for the limit: the number of times this
   execution has been deferred so far (1 the first time); how many of the account's RUNNING
   executions are not taken (queued or deferred, this one among them); the execution's deadline
   (epoch milliseconds, 0 when it has none)
]]
--- @include "list-row.lua"
--- @include "termination-flag.lua"
local args = cjson.decode(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'status', 'id', 'account', 'terminate', 'deadline', 'starttime', 'choreo', 'worker', 'cancel')
if state[1] == 'RUNNING' then
  local flagged = termination_requested(state[4], state[9])
  redis.call('ZREM', args.waiting, state[2])
  redis.call('ZREM', args.waiting_for_call_back, state[2])
  local limit = args.max_executing
  if limit > 0 then
    local executing = args.account_executing .. state[3]
    local exempt = flagged or tonumber(state[5] or '0') <= args.now
    if redis.call('SISMEMBER', executing, state[2]) == 0 then
      if not exempt and redis.call('SCARD', executing) >= limit then
        for _, member in ipairs(redis.call('SRANDMEMBER', executing, 16)) do
          local held = redis.call('HMGET', args.execution_prefix .. member, 'status', 'lease')
          if held[1] ~= 'RUNNING' or not held[2] or held[2] == '' then
            redis.call('SREM', executing, member)
          end
        end
        local taken = redis.call('SCARD', executing)
        if taken >= limit then
          return { -7, redis.call('HINCRBY', KEYS[1], 'deferrals', 1), redis.call('SCARD', args.account_running .. state[3]) - taken, tonumber(state[5] or '0') }
        end
      end
      redis.call('SADD', executing, state[2])
    end
  end
  redis.call('HSET', KEYS[1], 'host', args.host, 'worker', args.worker, 'lease', args.lease)
  if state[8] and state[8] ~= '' and state[8] ~= args.worker then
    redis.call('SREM', args.worker_executions .. state[8], state[2])
  end
  redis.call('SADD', args.worker_executions .. args.worker, state[2])
  redis.call('PEXPIRE', args.worker_executions .. args.worker, args.worker_executions_ttl)
  redis.call('HSET', args.account_rows .. state[3], state[2], list_row(state[6], args.host, args.worker, flagged, state[7]))
end
return redis.call('HGETALL', KEYS[1])
