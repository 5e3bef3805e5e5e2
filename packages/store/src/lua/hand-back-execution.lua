--[[
  A worker hands an execution back to the queue (graceful shutdown): it no longer runs on that
  host until another worker takes it, so its host is '' again, as while it first waited.

  It leaves its account's executing set (see take-execution.lua) as well: waiting again, it holds
  no place there until it is taken again. The set's name is the prefix given with the record's
  account appended.

  It leaves the set of the executions its worker holds (keys.ts, workerExecutions) too.

  Record fields (RECORD_FIELDS in execution-record.ts): reads `status lease letgo account id
  starttime terminate choreo worker cancel`; clears `host worker lease` and keeps the lease handed
  back as `letgo` (letGoLease): a client that lost the reply on a dropped connection sends the call
  again, and must hear that it was handed back.

  KEYS[1] execution hash

  ARGV[1] lease token of the worker handing it back
  ARGV[2] name of an account's executing set, less the account
  ARGV[3] name of an account's list rows of RUNNING executions, less the account
  ARGV[4] name of a worker's set of the executions it holds, less the worker id

  Returns (ScriptReply in script-replies.ts)
   Done (1)          handed back (now or by this very call before)
   NotRunning (-5)   nothing changed: it has ended (or is gone)
   Superseded (-6)   nothing changed: another take has happened since
]]
--- @include "let-go-of-execution.lua"
local reply = let_go_of_execution(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return reply or 1
