--[[
  A worker suspends an execution whose run waits (a durable wait): its checkpoint and the wait's
  due time are stored already (checkpoint-execution.lua, record-progress.lua); it no longer runs on
  any host until a worker takes it again when it is due, so its host is '' again, as while it
  first waited, and its worker's slot is free. Its job waits among the queue's delayed jobs.

  Like a hand-back (hand-back-execution.lua), it leaves its account's executing set and the set of
  the executions its worker holds, and keeps the lease it suspended under as `released`, so that a
  call sent again after a dropped connection hears that it was suspended. It enters the waiting set,
  scored by when it is due, which the take (taken again) and the end leave: what operations count
  as runs waiting; a run waiting for a call back not delivered yet enters the waiting-for-call-back
  set too, left with the other.

  A run waiting for a call back (control.waitForCallback) also stores its outputs so far (with the
  URL) and the entry of its token (`<execution id>\n<address of the step>` under the token's
  digest), which expires when the wait does; deliver-callback.lua uses it up.

  A top-level step's wait stores its entries (when it is due, its call back's token) in the record
  (`wait`), where the take that resumes it reads them: no key of its own for each waiting run.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status lease released account id
  starttime cancel choreo worker`; clears `host worker lease`, writes `released`, `wait` for a
  top-level step, and `output` for a call back.

  KEYS[1] execution hash
  KEYS[2] waiting sorted set (all accounts)
  KEYS[3] waiting-for-call-back sorted set (all accounts): the runs of KEYS[2] that wait for a call back

  ARGV[1] lease token of the worker suspending it
  ARGV[2] name of an account's executing set, less the account
  ARGV[3] name of an account's list rows of RUNNING executions, less the account
  ARGV[4] name of a worker's set of the executions it holds, less the worker id
  ARGV[5] when it is due, epoch milliseconds
  ARGV[6] outputs so far, JSON ('' keeps the stored ones)
  ARGV[7] name of the call back's entry ('' when the run waits for none)
  ARGV[8] address of the step waiting for the call back
  ARGV[9] when the call back's entry expires, epoch milliseconds
  ARGV[10] name of the execution's progress hash: a call back delivered already (to a run taken
           again after its worker died while suspending it) is not made possible a second time
  ARGV[11] the wait's progress entries, a JSON object by address, for a top-level step ('' inside
           a block, whose progress holds them already)
  ARGV[12] address of the call back's entry in the progress (progress-address.ts; '' when the run
           waits for none)

  Returns (ScriptReply in script-replies.ts)
   Done (1)          suspended (now or by this very call before)
   NotRunning (-5)   nothing changed: it has ended (or is gone)
   Superseded (-6)   nothing changed: another take has happened since
]]
-- listRow, releaseLease: list-row.lua and release-lease.lua, set before this script (scripts.ts).
local reply, state = releaseLease(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if reply then
  return reply
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'output', ARGV[6])
end
if ARGV[11] and ARGV[11] ~= '' then
  redis.call('HSET', KEYS[1], 'wait', ARGV[11])
end
if ARGV[7] ~= '' and redis.call('HEXISTS', ARGV[10], ARGV[12]) == 0 then
  redis.call('SET', ARGV[7], state[5] .. '\n' .. ARGV[8], 'PXAT', tonumber(ARGV[9]))
  redis.call('ZADD', KEYS[3], tonumber(ARGV[5]), state[5])
end
redis.call('ZADD', KEYS[2], tonumber(ARGV[5]), state[5])
return 1
