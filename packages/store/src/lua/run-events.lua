--[[
  Shared by the scripts that write run events (checkpoint-execution.lua, record-progress.lua,
  record-run-events.lua, suspend-execution.lua, accept-execution.lua, end-execution.lua and,
  through end-record.lua, every script that ends an execution), included by each of them.

  Adds run events (run-events.ts) to an execution's stream of them (keys.ts executionEvents), each
  as one entry `t <type> d <data>`, the stream trimmed to about `bound` entries (whole blocks at a
  time, the oldest first), then publishes the stream's name on `channel` once, for the API
  processes that watch it (run-event-feed.ts), when there was any. `joined` holds the events one
  per line, each a JSON object whose first member is `type`.
]]

local function add_run_events(stream, joined, bound, channel)
  if joined == nil or joined == '' then
    return
  end
  for line in string.gmatch(joined, '[^\n]+') do
    local kind = string.match(line, '^{"type":"([^"]+)"')
    redis.call('XADD', stream, 'MAXLEN', '~', bound, '*', 't', kind, 'd', line)
  end
  redis.call('PUBLISH', channel, stream)
end
