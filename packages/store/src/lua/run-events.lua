--[[
  Shared by the scripts that write run events (checkpoint-execution.lua, record-progress.lua,
  suspend-execution.lua, accept-execution.lua, end-execution.lua and, through end-record.lua,
  every script that ends an execution), included by each of them.

  Adds run events (run-events.ts) to an execution's stream of them (keys.ts executionEvents):
  `joined` holds the events one per line, each a JSON object whose first member is `type`. They
  go in entries of up to RUN_EVENTS_PER_ENTRY events, each event a field (its type) and its value
  (its line): one XADD per entry rather than per event, which is most of what writing an event
  costs Redis (a loop of pure steps writes hundreds at once). The stream is then trimmed to about
  `bound` entries (whole blocks at a time, the oldest first), and the stream's name is published
  on `channel`, for the API processes that watch it (run-event-feed.ts).
]]

-- Few enough that a stream of `bound` entries stays small whatever a run writes at once (a loop of
-- pure steps fills every entry); past 4, an entry more costs Redis little.
local RUN_EVENTS_PER_ENTRY = 4

local function add_run_events(stream, joined, bound, channel)
  if joined == nil or joined == '' then
    return
  end
  local fields = {}
  for line in string.gmatch(joined, '[^\n]+') do
    fields[#fields + 1] = string.match(line, '^{"type":"([^"]+)"')
    fields[#fields + 1] = line
    if #fields == 2 * RUN_EVENTS_PER_ENTRY then
      redis.call('XADD', stream, '*', unpack(fields))
      fields = {}
    end
  end
  if #fields > 0 then
    redis.call('XADD', stream, '*', unpack(fields))
  end
  redis.call('XTRIM', stream, 'MAXLEN', '~', bound)
  redis.call('PUBLISH', channel, stream)
end
