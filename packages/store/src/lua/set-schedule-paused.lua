--[[
  Pauses or resumes a schedule, only if it exists: a pause takes it out of the due set, a resume
  sets its cursor to the next tick and puts it back there. Fields as schedule-layout.lua says. In one script so that a schedule deleted
  meanwhile is not brought back as a hash without its spec, which no firer could ever fire or drop.

  KEYS[1] the schedule hash
  KEYS[2] the due schedules sorted set
  KEYS[3] the count of schedule changes (incremented when changed)

  ARGV[1] the schedule's member in KEYS[2] (`<account>\n<name>`)
  ARGV[2] 1 to pause, 0 to resume
  ARGV[3] the cursor on resume: the first tick after now (epoch ms); ignored on pause
  ARGV[4] the note of this pause or resume; '' leaves none
  ARGV[5] on resume, when a firer is to look at a tick left waiting under buffer-one while it was
          paused (now and a second), if that comes before the cursor

  Returns 1 when changed, 0 when the schedule does not exist.
]]
--- @include "schedule-layout.lua"
migrate_schedule(KEYS[1])
if redis.call('HEXISTS', KEYS[1], 's') == 0 then
  return 0
end
redis.call('INCR', KEYS[3])
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], 'n')
else
  redis.call('HSET', KEYS[1], 'n', ARGV[4])
end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'p', '1')
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('HDEL', KEYS[1], 'p')
  redis.call('HSET', KEYS[1], 'c', ARGV[3])
  local at = tonumber(ARGV[3])
  if redis.call('HEXISTS', KEYS[1], 'b') == 1 and tonumber(ARGV[5]) < at then
    at = tonumber(ARGV[5])
  end
  redis.call('ZADD', KEYS[2], at, ARGV[1])
end
return 1
