--[[
  Shared by the scripts that write a delivery's attempt (open-webhook-deliveries.lua for a first
  attempt made before its delivery was opened, record-webhook-attempts.lua for the others): the
  fields an attempt sets, in one HSET with what else the caller writes, and a 410's disabling of
  its subscription.
]]
-- Appends to `fields` the delivery's fields after attempt number `attempts`: `delivered` and
-- `dead` (also `gone`) are final; `retry` leaves it pending until `next_attempt`.
local function add_attempt_fields(fields, attempts, now, status, failure, outcome, next_attempt)
  for _, value in ipairs({ 'attempts', attempts, 'laststatus', status, 'lasterror', failure, 'lastattempt', now }) do
    table.insert(fields, value)
  end
  local more
  if outcome == 'delivered' then
    more = { 'state', 'delivered', 'deliveredat', now }
  elseif outcome == 'retry' then
    more = { 'state', 'pending', 'nextattempt', next_attempt }
  else
    more = { 'state', 'dead' }
  end
  for _, value in ipairs(more) do
    table.insert(fields, value)
  end
end

-- A 410 Gone: the subscription `webhook` of the account's subscriptions hash is disabled, and its GET says so.
local function disable_gone_webhook(subscriptions, webhook, now)
  local subscription = redis.call('HGET', subscriptions, webhook)
  if subscription then
    local decoded = cjson.decode(subscription)
    decoded.disabled = { at = now, reason = 'the endpoint answered 410 Gone' }
    redis.call('HSET', subscriptions, webhook, cjson.encode(decoded))
  end
end
