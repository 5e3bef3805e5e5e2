-- Appends ARGV[from..to], step events as JSON arrays (step-history.ts), to an execution's step history (a list,
-- keys.ts executionSteps), bounded: the first `first` events and the last `last` are kept, and
-- those between are replaced by one marker at index `first`, `{"dropped":<count>}`, counting them.
-- Past the bound each append costs a few list operations near the head, never a rewrite.
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
  -- Events are JSON arrays, never '': the blanked ones are exactly those LREM takes out.
  for index = first + 1, first + removed do
    redis.call('LSET', history, index, '')
  end
  if removed > 0 then
    redis.call('LREM', history, removed, '')
  end
  redis.call('LSET', history, first, '{"dropped":' .. (dropped + over) .. '}')
end
