--[[
  Creates an execution record in RUNNING status and indexes it as running, unless the account
  already has its quota of running executions.

  KEYS[1] execution hash
  KEYS[2] running sorted set (all accounts)
  KEYS[3] running set of the execution's account

  ARGV[1] execution id
  ARGV[2] start time, epoch milliseconds
  ARGV[3] maximum running executions for the account (0: no limit)
  ARGV[4..] field, value, field, value … of the record

  Returns
   1  created
   0  an execution with this id exists already
  -1  the account is at its quota of running executions
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local quota = tonumber(ARGV[3])
if quota > 0 and redis.call('SCARD', KEYS[3]) >= quota then
  return -1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
