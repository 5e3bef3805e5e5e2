--[[
  Creates or replaces a schedule: its hash, its name in its account's set and its member in the
  due set change together, and a new one is refused once its account holds the most it may keep.
  A replace keeps the counters and drops a tick left waiting under buffer-one (the old spec's). A
  paused one leaves the due set in the same step: were it put there first, a process dying before
  taking it out would leave a paused schedule that fires.

  KEYS[1] the schedule hash
  KEYS[2] the account's set of schedule names
  KEYS[3] the due schedules sorted set
  KEYS[4] the count of schedule changes (incremented unless refused)

  ARGV[1] the schedule's name (its member in KEYS[2])
  ARGV[2] its member in KEYS[3] (`<account>\n<name>`)
  ARGV[3] the spec (JSON)
  ARGV[4] the cursor: its first tick after now (epoch ms)
  ARGV[5] 1 when written paused, 0 otherwise
  ARGV[6] most schedules the account may keep (0: no limit)

  Returns 1 when created, 0 when replaced, -1 when refused for the account's limit (nothing changed).
]]
local existed = redis.call('EXISTS', KEYS[1])
local most = tonumber(ARGV[6])
if existed == 0 and most > 0 and redis.call('SCARD', KEYS[2]) >= most then
  return -1
end
redis.call('HSET', KEYS[1], 'spec', ARGV[3], 'cursor', ARGV[4], 'paused', ARGV[5])
redis.call('HDEL', KEYS[1], 'buffered')
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('INCR', KEYS[4])
if ARGV[5] == '1' then
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], tonumber(ARGV[4]), ARGV[2])
end
return 1 - existed
