--[[
  Shared by the scripts that let an account store more (accept-record.lua, reserve-runs.lua): whether
  `size` more bytes fit the account's budget, a sliding window of the retention's length made of two
  fixed windows (accept-execution.lua's header says how).

  bytes_now, bytes_before: the account's stored bytes in the current window and the one before it
  args: budget (0: no limit), window_ms, window_start, starttime (of what is stored, as a string)

  Returns nil when it fits, else the refusal to answer: LargerThanBudget (-4) or
  {BudgetExceeded (-3), seconds to wait}.
]]
local function over_budget(bytes_now, bytes_before, args, size)
  local budget = args.budget
  if budget <= 0 then
    return nil
  end
  if size > budget then
    return -4
  end
  local stored = redis.call('MGET', bytes_now, bytes_before)
  local current = tonumber(stored[1] or '0')
  local previous = tonumber(stored[2] or '0')
  local window = args.window_ms
  local elapsed = tonumber(args.starttime) - args.window_start
  local room = budget - current - size
  if room < previous * (window - elapsed) / window then
    -- The previous window's share shrinks as this one goes on; what this one holds waits for
    -- the next window, and shrinks through that one in turn.
    local wait
    if room >= 0 then
      wait = window * (1 - room / previous) - elapsed
    else
      wait = window - elapsed + window * math.min(1, -room / math.max(current, 1))
    end
    return { -3, math.max(1, math.ceil(wait / 1000)) }
  end
  return nil
end
