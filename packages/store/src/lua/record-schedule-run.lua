--[[
  Counts a run a schedule started outside its cursor (a trigger, a backfill tick), or one its
  overlap policy skipped, only if the schedule still exists: a delete meanwhile must not leave a
  hash without its spec behind. The cursor is not moved: the schedule's own ticks go on as before.

  KEYS[1] the schedule hash

  ARGV[1] the scheduled time of the tick (epoch ms)
  ARGV[2] 'fired' or 'skipped'

  Returns 1 when counted, 0 when the schedule does not exist.
]]
--- @include "schedule-layout.lua"
migrate_schedule(KEYS[1])
if redis.call('HEXISTS', KEYS[1], 's') == 0 then
  return 0
end
if ARGV[2] == 'fired' then
  redis.call('HINCRBY', KEYS[1], 'f', 1)
  redis.call('HSET', KEYS[1], 'l', ARGV[1])
else
  redis.call('HINCRBY', KEYS[1], 'k', 1)
end
return 1
