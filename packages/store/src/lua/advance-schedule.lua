--[[
  Moves a schedule's cursor past a tick once the tick's run is accepted, only if the cursor is
  still where the firer read it (compare-and-set): a firer that lost its lease and comes late
  changes nothing. A crash before this leaves the cursor on the tick, so the next firer accepts
  the same tick again and the run's idempotency identity makes that a replay.

  KEYS[1] the schedule hash
  KEYS[2] the due schedules sorted set

  ARGV[1] the schedule's member in KEYS[2] (`<account>\n<name>`)
  ARGV[2] the cursor the firer read (epoch ms)
  ARGV[3] the new cursor: the next tick to fire (epoch ms)
  ARGV[4] ticks counted as fired by this move (0 or 1)
  ARGV[5] ticks counted as missed by this move (older than the catch-up window)
  ARGV[6] ticks counted as skipped by the overlap policy by this move
  ARGV[7] 1 to put the schedule back in KEYS[2] at the new cursor, 0 to leave it leased
  ARGV[8] the scheduled time of the tick fired, when not ARGV[2] (a buffered tick); '' for ARGV[2]
  ARGV[9] the tick waiting under `buffer-one`: '' leaves it, '-' clears it, a time sets it
  ARGV[10] when to put the schedule back in KEYS[2], when not at the new cursor (a buffered tick
           is looked at again before the next tick); '' for the new cursor

  Returns 1 when moved, 0 when the cursor was elsewhere (nothing changed), -1 when the schedule
  no longer exists (its member is taken out of KEYS[2]).
]]
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return -1
end
if redis.call('HGET', KEYS[1], 'cursor') ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], 'cursor', ARGV[3])
if ARGV[4] ~= '0' then
  redis.call('HINCRBY', KEYS[1], 'fired', ARGV[4])
  redis.call('HSET', KEYS[1], 'lastTick', ARGV[8] ~= '' and ARGV[8] or ARGV[2])
end
if ARGV[9] == '-' then
  redis.call('HDEL', KEYS[1], 'buffered')
elseif ARGV[9] ~= '' then
  redis.call('HSET', KEYS[1], 'buffered', ARGV[9])
end
if ARGV[5] ~= '0' then redis.call('HINCRBY', KEYS[1], 'missed', ARGV[5]) end
if ARGV[6] ~= '0' then redis.call('HINCRBY', KEYS[1], 'skipped', ARGV[6]) end
if ARGV[7] == '1' and redis.call('HGET', KEYS[1], 'paused') ~= '1' then
  redis.call('ZADD', KEYS[2], tonumber(ARGV[10] ~= '' and ARGV[10] or ARGV[3]), ARGV[1])
end
return 1
