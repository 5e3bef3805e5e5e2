--[[
  Shared by the scripts that accept and end executions (accept-execution.lua, end-record.lua):
  puts a run's event in the webhook outbox (keys.ts, webhookOutbox) in the same script as the
  status change, so that a crash can neither lose the event nor send one for a change that did not
  happen. Only when something may want it: one of the account's subscriptions lists one of the
  event types (its counts, put-webhook.lua), or the run names its own call-back (record field
  `webhook`, for an end). An account without subscriptions costs one HMGET.

  `webhooks` (from the caller's named arguments): `events`, the name of an account's event counts
  less the account (keys.ts, accountWebhookEvents); `outbox`, the outbox's name. Absent (a caller
  of an earlier version): nothing is queued.
]]
-- kind: 'start' or 'end'; types: the event types the change is; record: the execution's hash.
local function queue_webhook_event(webhooks, kind, account, id, types, record, now)
  if type(webhooks) ~= 'table' then
    return
  end
  local wanted = false
  for _, count in ipairs(redis.call('HMGET', webhooks.events .. account, unpack(types))) do
    if count and tonumber(count) > 0 then
      wanted = true
    end
  end
  if not wanted and kind == 'end' then
    wanted = redis.call('HEXISTS', record, 'webhook') == 1
  end
  if wanted then
    redis.call('ZADD', webhooks.outbox, 'NX', now, kind .. '\n' .. account .. '\n' .. id)
  end
end
