--[[
  Shared by the scripts that write an account's list rows of RUNNING executions (keys.ts,
  accountRunningRows), included by each of them: the row of one execution, tab-separated, in the
  order encodeListRow in execution-record.ts writes and decodeListRow reads. `cancel` may be false
  (no flag yet).
]]
local function list_row(starttime, host, worker, cancel, choreo)
  return starttime .. '\t' .. host .. '\t' .. worker .. '\t' .. (cancel or '') .. '\t' .. choreo
end
