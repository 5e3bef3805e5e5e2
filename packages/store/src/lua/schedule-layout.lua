--[[
  Shared by every script that writes a schedule hash, included by each of them. A hash is kept
  with one-letter fields (schedule-record.ts): `s`, `s1`… the spec, `c` the cursor, `p` 1 while
  paused, `f`/`m`/`k` fired/missed/skipped (absent while 0), `l` the last fired tick, `b` the tick
  waiting under buffer-one, `n` the note of the last pause or resume. A hash written before names
  them `spec`, `cursor`, `paused`, `fired`, `missed`, `skipped`, `lastTick`, `buffered` and
  `stateNote`; such a hash is renamed in place before it is written, so a schedule stored before
  goes on firing, and its counts go on, as one written now (its old spec, a JSON object, is read
  as it is until the next put writes it again).
]]
local OLD_SCHEDULE_FIELDS = {
  spec = 's', cursor = 'c', fired = 'f', missed = 'm', skipped = 'k', lastTick = 'l', buffered = 'b', stateNote = 'n',
}

-- Renames the fields of a hash written before, if it is one (it always has `cursor`).
local function migrate_schedule(key)
  if redis.call('HEXISTS', key, 'cursor') == 0 then
    return
  end
  local hash = redis.call('HGETALL', key)
  -- The old spec is whole: pieces of a newer one written before it (a put of an earlier version
  -- during an upgrade) are no part of it.
  local piece = 1
  while redis.call('HDEL', key, 's' .. piece) == 1 do
    piece = piece + 1
  end
  for i = 1, #hash, 2 do
    local field, value = hash[i], hash[i + 1]
    local short = OLD_SCHEDULE_FIELDS[field]
    if short ~= nil then
      if (short == 'f' or short == 'm' or short == 'k') and value == '0' then
        -- A zero count is kept as no field.
      else
        redis.call('HSET', key, short, value)
      end
      redis.call('HDEL', key, field)
    elseif field == 'paused' then
      if value == '1' then redis.call('HSET', key, 'p', '1') else redis.call('HDEL', key, 'p') end
      redis.call('HDEL', key, field)
    end
  end
end
