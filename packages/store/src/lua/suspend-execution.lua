--[[
  A worker suspends an execution whose run waits (a durable wait): its checkpoint and the wait's
  due time are stored already (checkpoint-execution.lua, record-progress.lua); it no longer runs on
  any host until a worker takes it again when it is due, so its host is '' again, as while it
  first waited, and its worker's slot is free. Its job waits among the queue's delayed jobs.

  Like a hand-back (hand-back-execution.lua), it leaves its account's executing set and the set of
  the executions its worker holds, and keeps the lease it suspended under as `letgo`, so that a
  call sent again after a dropped connection hears that it was suspended. It enters the waiting set,
  scored by when it is due, which the take (taken again) and the end leave: what operations count
  as runs waiting; a run waiting for a call back not delivered yet enters the waiting-for-call-back
  set too, left with the other.

  A run waiting for a call back (control.waitForCallback) also stores its outputs so far (with the
  URL) and the entry of its token (`<execution id>\n<address of the step>` under the token's
  digest), which expires when the wait does; deliver-callback.lua uses it up.

  A top-level step's wait appends its entries (when it is due, its call back's token) to the
  execution's progress, as a wait inside a block has done already, and points the record's cursor
  at them, so that the take reads them back with the rest of the progress: one log for every wait.
  Records suspended by earlier versions keep them in the field `wait`, which the take still reads.

  A run that waits for child executions (choreo.run) is due when the first of them ends: a child's
  end makes its suspended parent due (end-record.lua), and one that ended before this suspension
  makes it due here, in the same write, so that no end is missed between the two.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status lease letgo account id
  starttime terminate choreo worker cancel`; clears `host worker lease`, writes `letgo`, `cursor`
  for a top-level step's wait, and `output` for a call back.

  KEYS[1] execution hash
  KEYS[2] waiting sorted set (all accounts)
  KEYS[3] waiting-for-call-back sorted set (all accounts): the runs of KEYS[2] that wait for a call back
  KEYS[4] the execution's run events (run-events.lua): the wait's `wait.started` among them
  KEYS[5] the execution's set of running children (accept-execution.lua, end-record.lua)

  ARGV[1] the suspension, a JSON object:
    lease               lease token of the worker suspending it
    due                 when it is due, epoch milliseconds
    account_executing   name of an account's executing set, less the account
    account_rows        name of an account's list rows of RUNNING executions, less the account
    worker_executions   name of a worker's set of the executions it holds, less the worker id
    callback_entry      name of the call back's entry ('' when the run waits for none)
    callback_address    address of the step waiting for the call back
    callback_expires_at when the call back's entry expires, epoch milliseconds
    progress            name of the execution's progress hash: a call back delivered already (to a
                        run taken again after its worker died while suspending it) is not made
                        possible a second time; a top-level step's wait entries are appended to it
    callback_entry_address  address of the call back's entry in the progress (progress-address.ts;
                        '' when the run waits for none)
    run_events          run events since the last write, one per line ('' for none)
    run_events_bound    run events: how many the list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    publish             PUBLISH, or SPUBLISH on a Cluster: the command that publishes run events and ends
    children            ids of the child executions the run waits for (a list, maybe empty): when
                        one has ended already (it left KEYS[5]), the run is due at once, `now`
    now                 epoch milliseconds
  ARGV[2] outputs so far, JSON ('' keeps the stored ones): an argument of its own, so that they are
          not escaped into ARGV[1] and decoded out of it again
  ARGV[3], ARGV[4], … address, JSON value: a top-level step's wait entries to append to the
          progress (none inside a block, whose progress holds them already)

  Returns (ScriptReply in script-replies.ts)
   Done (1)          suspended (now or by this very call before)
   NotRunning (-5)   nothing changed: it has ended (or is gone)
   Superseded (-6)   nothing changed: another take has happened since
]]
--- @include "let-go-of-execution.lua"
--- @include "run-events.lua"
local args = cjson.decode(ARGV[1])
local outputs = ARGV[2]
local reply, state = let_go_of_execution(KEYS[1], args.lease, args.account_executing, args.account_rows, args.worker_executions)
if reply then
  return reply
end
if outputs ~= '' then
  redis.call('HSET', KEYS[1], 'output', outputs)
end
if #ARGV >= 4 then
  redis.call('HSET', args.progress, unpack(ARGV, 3))
  redis.call('HSET', KEYS[1], 'cursor', ARGV[#ARGV - 1])
end
if args.callback_entry ~= '' and redis.call('HEXISTS', args.progress, args.callback_entry_address) == 0 then
  redis.call('SET', args.callback_entry, state[5] .. '\n' .. args.callback_address, 'PXAT', args.callback_expires_at)
  redis.call('ZADD', KEYS[3], args.due, state[5])
end
local due = args.due
for _, child in ipairs(args.children) do
  if redis.call('SISMEMBER', KEYS[5], child) == 0 then
    due = args.now
  end
end
redis.call('ZADD', KEYS[2], due, state[5])
add_run_events(KEYS[4], args.run_events, args.run_events_bound, args.run_events_channel, args.publish)
return 1
