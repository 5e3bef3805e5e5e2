--[[
  Reserves a place among the executions of one account that workers hold, in the control slot,
  before a worker takes a run on its shard (account-reservations.ts): with more than one shard,
  no shard's take sees every executing run of the account. A run already among them (taken again
  after its worker died) keeps its place.

  KEYS[1] the account's reserved executing runs (sorted set: execution id → when reserved)

  ARGV[1] execution id
  ARGV[2] most executions of the account held at once
  ARGV[3] now, epoch milliseconds

  Returns (ScriptReply in script-replies.ts)
   Done (1)       reserved, or reserved already
   Deferred (-7)  the account holds its most: the caller checks the members and asks again, or defers
]]
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 1
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return -7
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
