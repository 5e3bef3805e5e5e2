--[[
  Creates or replaces a schedule: its hash, its name in its account's set and its member in the
  due set change together, and a new one is refused once its account holds the most it may keep.
  A replace keeps the counters and drops a tick left waiting under buffer-one (the old spec's). A
  paused one leaves the due set in the same step: were it put there first, a process dying before
  taking it out would leave a paused schedule that fires. The hash's fields are as
  schedule-layout.lua says; one written before is renamed first.

  KEYS[1] the schedule hash
  KEYS[2] the account's set of schedule names
  KEYS[3] the due schedules sorted set
  KEYS[4] the count of schedule changes (incremented unless refused)

  ARGV[1] the schedule's name (its member in KEYS[2])
  ARGV[2] its member in KEYS[3] (`<account>\n<name>`)
  ARGV[3] the cursor: its first tick after now (epoch ms)
  ARGV[4] 1 when written paused, 0 otherwise
  ARGV[5] most schedules the account may keep (0: no limit)
  ARGV[6] and on: the spec (schedule-record.ts) in pieces of at most 64 bytes, `s`, `s1`, `s2`…

  Returns 1 when created, 0 when replaced, -1 when refused for the account's limit (nothing changed).
]]
--- @include "schedule-layout.lua"
local existed = redis.call('EXISTS', KEYS[1])
local most = tonumber(ARGV[5])
if existed == 0 and most > 0 and redis.call('SCARD', KEYS[2]) >= most then
  return -1
end
migrate_schedule(KEYS[1])
-- Written anew with what a replace keeps: Redis never turns a hash back into a listpack, so one
-- that held a longer value once (an old spec) would stay a hash table.
local kept = redis.call('HMGET', KEYS[1], 'f', 'm', 'k', 'l', 'n')
redis.call('DEL', KEYS[1])
local fields = { 'f', 'm', 'k', 'l', 'n' }
for i = 1, #fields do
  if kept[i] then redis.call('HSET', KEYS[1], fields[i], kept[i]) end
end
redis.call('HSET', KEYS[1], 'c', ARGV[3], 's', ARGV[6])
for i = 7, #ARGV do
  redis.call('HSET', KEYS[1], 's' .. (i - 6), ARGV[i])
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('INCR', KEYS[4])
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], 'p', '1')
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[2])
end
return 1 - existed
