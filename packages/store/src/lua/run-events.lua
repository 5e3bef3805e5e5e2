--[[
  Shared by the scripts that write run events (checkpoint-execution.lua, record-progress.lua,
  suspend-execution.lua, accept-execution.lua, end-execution.lua and, through end-record.lua,
  every script that ends an execution), included by each of them.

  Appends run events (run-events.ts) to an execution's list of them (keys.ts executionEvents):
  `joined` holds the events one per line, each a JSON object. Each is stored as `<seq> <line>`,
  `seq` its number in the run (1, 2, …: the one after the list's last), which is its id. The list
  is then trimmed to its last `bound` events (LTRIM from the head: the cost of what it drops), and
  the list's name is published on `channel` with `publish` (PUBLISH, or SPUBLISH on a Cluster,
  whose sharded messages stay with the channel's shard: pub-sub.ts), for the API processes that
  watch it (run-event-feed.ts). A list, not a stream: a stream's first node takes 4 KB however little it
  holds, and every retained run keeps its events.
]]

local function add_run_events(list, joined, bound, channel, publish)
  if joined == nil or joined == '' then
    return
  end
  local last = redis.call('LINDEX', list, -1)
  local seq = 0
  if last then
    seq = tonumber(string.match(last, '^%d+'))
  end
  local items = {}
  for line in string.gmatch(joined, '[^\n]+') do
    seq = seq + 1
    items[#items + 1] = string.format('%d', seq) .. ' ' .. line
    -- Lua unpacks arguments on its C stack: a few thousand at most.
    if #items == 1000 then
      redis.call('RPUSH', list, unpack(items))
      items = {}
    end
  end
  if #items > 0 then
    redis.call('RPUSH', list, unpack(items))
  end
  redis.call('LTRIM', list, -bound, -1)
  redis.call(publish, channel, list)
end
