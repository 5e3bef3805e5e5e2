--[[
  Shared by the scripts that write an account's list rows of RUNNING executions (keys.ts,
  accountRunningRows), included by each of them: the row of one execution, tab-separated, in the
  order encodeListRow in execution-record.ts writes and decodeListRow reads; `flagged` says
  whether termination has been requested.
]]
local function list_row(starttime, host, worker, flagged, choreo)
  return starttime .. '\t' .. host .. '\t' .. worker .. '\t' .. (flagged and '1' or '') .. '\t' .. choreo
end
