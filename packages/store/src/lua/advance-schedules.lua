--[[
  Moves the cursors of several schedules past their ticks once the ticks' runs are accepted, each
  only if its cursor is still where the firer read it (compare-and-set): a firer that lost its
  lease and comes late changes nothing. A crash before this leaves a cursor on its tick, so the
  next firer accepts the same tick again and the run's idempotency identity makes that a replay.
  The moves of ticks that fall due together go in one call: one round trip and one script run for
  a whole batch instead of one each. Each move stands alone: one that finds its cursor elsewhere
  or its schedule gone changes nothing of the others. Fields as schedule-layout.lua says.

  KEYS[1] the due schedules sorted set

  ARGV[1] the number of moves, n; then n groups of 12 values, the i-th group from
          ARGV[2 + 12 * (i - 1)]:
    +0  the schedule hash (a key of KEYS[1]'s hash slot, named by the caller)
    +1  the schedule's member in KEYS[1] (`<account>\n<name>`)
    +2  the cursor the firer read (epoch ms)
    +3  the new cursor: the next tick to fire (epoch ms)
    +4  ticks counted as fired by this move (0 or 1)
    +5  ticks counted as missed by this move (older than the catch-up window)
    +6  ticks counted as skipped by the overlap policy by this move
    +7  1 to put the schedule back in KEYS[1] at the new cursor, 0 to leave it leased
    +8  the scheduled time of the tick fired, when not +2 (a buffered tick); '' for +2
    +9  the tick waiting under `buffer-one`: '' leaves it, '-' clears it (only if it is the tick
        fired: one a trigger left meanwhile stays), a time sets it (only if none waits: one a
        trigger or a backfill left meanwhile stays, and this one is counted as skipped)
    +10 when to put the schedule back in KEYS[1], when not at the new cursor (a buffered tick is
        looked at again before the next tick); '' for the new cursor
    +11 when to put it back at the latest while a tick waits that the firer did not know of (left
        by a trigger or a backfill while it held the schedule): now and a second

  Returns one reply per move, in order: 1 when moved, 2 when moved but the tick it asked to leave
  waiting was counted as skipped (another tick, a trigger's or a backfill's, waits already), 0 when
  the cursor was elsewhere (nothing changed), -1 when the schedule no longer exists (its member is
  taken out of KEYS[1]).
]]
--- @include "schedule-layout.lua"
local function advance(key, member, from, to, fired, missed, skipped, release, fired_tick, buffer, release_at, waiting_at)
  if redis.call('EXISTS', key) == 0 then
    redis.call('ZREM', KEYS[1], member)
    return -1
  end
  migrate_schedule(key)
  if redis.call('HGET', key, 'c') ~= from then
    return 0
  end
  redis.call('HSET', key, 'c', to)
  local moved = 1
  local fired_at = fired_tick ~= '' and fired_tick or from
  if fired ~= '0' then
    redis.call('HINCRBY', key, 'f', fired)
    redis.call('HSET', key, 'l', fired_at)
  end
  local waiting = redis.call('HGET', key, 'b')
  if buffer == '-' then
    if waiting == fired_at then
      redis.call('HDEL', key, 'b')
      waiting = false
    end
  elseif buffer ~= '' then
    if not waiting then
      redis.call('HSET', key, 'b', buffer)
    elseif waiting ~= buffer then
      redis.call('HINCRBY', key, 'k', 1)
      moved = 2
    end
  end
  if missed ~= '0' then redis.call('HINCRBY', key, 'm', missed) end
  if skipped ~= '0' then redis.call('HINCRBY', key, 'k', skipped) end
  if release == '1' and redis.call('HGET', key, 'p') ~= '1' then
    local at = tonumber(release_at ~= '' and release_at or to)
    if waiting and release_at == '' and tonumber(waiting_at) < at then
      at = tonumber(waiting_at)
    end
    redis.call('ZADD', KEYS[1], at, member)
  end
  return moved
end

local replies = {}
for i = 0, tonumber(ARGV[1]) - 1 do
  local at = 2 + 12 * i
  replies[i + 1] = advance(ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], ARGV[at + 5],
    ARGV[at + 6], ARGV[at + 7], ARGV[at + 8], ARGV[at + 9], ARGV[at + 10], ARGV[at + 11])
end
return replies
