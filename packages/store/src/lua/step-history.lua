--[[
  Shared by the scripts that write step events (checkpoint-execution.lua, record-progress.lua,
  end-execution.lua), included by each of them.

  Appends ARGV[from..to], step events as JSON arrays (step-history.ts), to an execution's step history (a list,
  keys.ts executionSteps), bounded: the first `first` events and the last `last` are kept, and
  those between are replaced by one marker at index `first`, `{"dropped":<count>}`, counting them.
  Past the bound each append costs a few list operations near the head, never a rewrite.
  An event's start may be relative to the event before it and its host 0 for the same host
  (step-history.ts), so the marker keeps what the events after it need:
  `{"dropped":<count>,"start":<start of the last dropped event>,"host":<host named last>}`, the
  start relative or not as an event's is, the host absent when no dropped event named one.
]]

-- What `entries` (events, or a marker first) leave for the events after them: the start of the
-- last (relative to the event before the first when none is absolute) and the host named last.
local function dropped_summary(entries)
  local start = 0
  local host = nil
  for _, json in ipairs(entries) do
    local ok, entry = pcall(cjson.decode, json)
    if ok and type(entry) == 'table' then
      local stored_start = entry[5]
      local stored_host = entry[8]
      if entry.dropped ~= nil then
        stored_start = entry.start
        stored_host = entry.host
      end
      if type(stored_start) == 'number' then
        if math.abs(stored_start) < 1e11 then
          start = start + stored_start
        else
          start = stored_start
        end
      end
      if type(stored_host) == 'string' then
        host = stored_host
      end
    end
  end
  return start, host
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
  local start, host = dropped_summary(redis.call('LRANGE', history, first, first + removed))
  -- Events are JSON arrays, never '': the blanked ones are exactly those LREM takes out.
  for index = first + 1, first + removed do
    redis.call('LSET', history, index, '')
  end
  if removed > 0 then
    redis.call('LREM', history, removed, '')
  end
  local kept = ',"start":' .. string.format('%d', start)
  if host then
    kept = kept .. ',"host":' .. cjson.encode(host)
  end
  redis.call('LSET', history, first, '{"dropped":' .. (dropped + over) .. kept .. '}')
end
