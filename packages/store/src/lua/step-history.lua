-- Appends ARGV[from..to], step events as JSON arrays (step-history.ts), to an execution's step history (a list,
-- keys.ts executionSteps), bounded: the first `first` events and the last `last` are kept, and
-- those between are replaced by one marker at index `first`, `{"dropped":<count>}`, counting them.
-- Past the bound each append costs a few list operations near the head, never a rewrite.
-- An event whose host is 0 ran on the host of the event before it (step-history.ts), so the marker
-- keeps the host of the last dropped event that named one: `{"dropped":<count>,"host":<host>}`.

-- The host named last in `entries` (events, or a marker first), or nil when none names one.
local function last_named_host(entries)
  for index = #entries, 1, -1 do
    local ok, entry = pcall(cjson.decode, entries[index])
    if ok and type(entry) == 'table' then
      if type(entry[8]) == 'string' then
        return entry[8]
      end
      if type(entry.host) == 'string' then
        return entry.host
      end
    end
  end
  return nil
end

local function append_step_events(history, first, last, from, to)
  if to < from then
    return
  end
  local length = redis.call('RPUSH', history, unpack(ARGV, from, to))
  if length <= first + last then
    return
  end
  local marker = redis.call('LINDEX', history, first)
  local dropped = 0
  local over
  local removed
  if string.sub(marker, 1, 11) == '{"dropped":' then
    dropped = tonumber(string.match(marker, '%d+'))
    over = length - first - 1 - last
    removed = over
  else
    -- The event at `first` becomes the marker: it is the first one dropped.
    over = length - first - last
    removed = over - 1
  end
  if over <= 0 then
    return
  end
  local host = last_named_host(redis.call('LRANGE', history, first, first + removed))
  -- Events are JSON arrays, never '': the blanked ones are exactly those LREM takes out.
  for index = first + 1, first + removed do
    redis.call('LSET', history, index, '')
  end
  if removed > 0 then
    redis.call('LREM', history, removed, '')
  end
  local named = ''
  if host then
    named = ',"host":' .. cjson.encode(host)
  end
  redis.call('LSET', history, first, '{"dropped":' .. (dropped + over) .. named .. '}')
end
