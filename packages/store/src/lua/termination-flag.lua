--[[
  Shared by every script that reads or sets an execution's termination flag, included by each of
  them. The flag is the record's field `terminate` (terminationRequested), '1' once termination
  has been requested. Records and processes of earlier versions name it `cancel`
  (legacyTerminationRequested): the scripts read either, and set both, so that a request made on
  either side of a rolling upgrade is seen by the other, and a record flagged before it still is.
]]
-- Whether termination has been requested, given the values of `terminate` and `cancel` as read.
local function termination_requested(flag, legacy_flag)
  return flag == '1' or legacy_flag == '1'
end
