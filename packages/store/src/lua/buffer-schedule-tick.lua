--[[
  Keeps a tick of a trigger or a backfill waiting under buffer-one while the schedule's last run
  goes on: it becomes the schedule's one waiting tick (`b`), which a firer starts once that run
  has ended, as it starts a tick it kept waiting itself; when another tick waits already, it is
  counted as skipped. The schedule is brought forward in the due set so that a firer looks at it
  within a second, unless a firer holds it (its member's score is then its lease's end, not its
  cursor): that firer, moving the cursor, puts it back early itself (advance-schedules.lua), and
  if it dies its lease ends and the next firer finds the tick. Fields as schedule-layout.lua says.

  KEYS[1] the schedule hash
  KEYS[2] the due schedules sorted set

  ARGV[1] the schedule's member in KEYS[2] (`<account>\n<name>`)
  ARGV[2] the scheduled time of the tick (epoch ms)
  ARGV[3] when a firer is to look at it (epoch ms): now and a second

  Returns 1 when the tick waits (now, or already before: a backfill given twice), 2 when another
  tick waits and this one was counted as skipped, 0 when the schedule does not exist.
]]
--- @include "schedule-layout.lua"
migrate_schedule(KEYS[1])
if redis.call('HEXISTS', KEYS[1], 's') == 0 then
  return 0
end
local waiting = redis.call('HGET', KEYS[1], 'b')
if waiting == ARGV[2] then
  return 1
end
if waiting then
  redis.call('HINCRBY', KEYS[1], 'k', 1)
  return 2
end
redis.call('HSET', KEYS[1], 'b', ARGV[2])
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
local look_at = tonumber(ARGV[3])
if score and tonumber(score) == tonumber(redis.call('HGET', KEYS[1], 'c')) and tonumber(score) > look_at then
  redis.call('ZADD', KEYS[2], look_at, ARGV[1])
end
return 1
