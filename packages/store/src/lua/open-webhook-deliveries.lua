--[[
  Opens deliveries: each one's record, unless it exists (a dispatcher that made it and died before
  taking its event out of the outbox makes it again: the id is the same, and what it recorded
  since, delivered above all, stays), and its place among its subscription's recent deliveries.
  A delivery opened after its first attempt (the dispatcher sends first, then opens) is written
  with that attempt: most are delivered by it, and cost one write. The deliveries of the events a
  dispatcher claimed together go in one call: one round trip and one script run for them all, and
  each subscription's recent list trimmed once. Each stands alone: one that exists changes nothing
  of the others.

  KEYS[1] the webhook outbox sorted set: not written; named so that the call runs where the
          deliveries' keys are, which share its hash slot

  ARGV[1] seconds a record is kept
  ARGV[2] most recent deliveries a subscription lists
  ARGV[3] the number of deliveries, n; then n groups of 16 values, the i-th group from
          ARGV[4 + 16 * (i - 1)]:
    +0  the delivery's hash (a key of KEYS[1]'s hash slot, named by the caller)
    +1  the subscription's recent deliveries sorted set (likewise)
    +2  the account's subscriptions hash (likewise; written only by a first attempt's 410)
    +3  the delivery's id
    +4  now (epoch ms): its creation and the start of its round
    +5  account
    +6  webhook (the subscription's name, or the run's own call-back)
    +7  execution id
    +8  type (execution.started, execution.ended, execution.failed)
    +9  url
    +10 body
    +11 the first attempt's outcome, as record-webhook-attempts.lua takes it (delivered, retry,
        dead, gone); '' when none was made: the delivery is pending, its first attempt due now
    +12 when that attempt ended, epoch ms
    +13 the endpoint's HTTP status (0: none)
    +14 why it failed ('' when delivered)
    +15 epoch ms of the next attempt, with retry; '' otherwise

  Returns one reply per delivery, in order: 1 opened, 0 it existed already (its attempt, if any,
  not recorded)
]]
--- @include "webhook-attempt.lua"

local kept = tonumber(ARGV[1])
local most_recent = tonumber(ARGV[2])
local replies = {}
local touched = {}
for i = 1, tonumber(ARGV[3]) do
  local at = 4 + 16 * (i - 1)
  local key, recent, subscriptions, id, now = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  local outcome = ARGV[at + 11]
  if redis.call('EXISTS', key) == 1 then
    replies[i] = 0
  else
    local fields = {
      'account', ARGV[at + 5], 'webhook', ARGV[at + 6], 'execution', ARGV[at + 7], 'type', ARGV[at + 8],
      'url', ARGV[at + 9], 'body', ARGV[at + 10], 'created', now, 'since', now, 'round', '0',
    }
    if outcome == '' then
      for _, value in ipairs({ 'state', 'pending', 'attempts', '0', 'nextattempt', now }) do
        table.insert(fields, value)
      end
    else
      add_attempt_fields(fields, 1, ARGV[at + 12], ARGV[at + 13], ARGV[at + 14], outcome, ARGV[at + 15])
    end
    redis.call('HSET', key, unpack(fields))
    redis.call('EXPIRE', key, kept)
    if outcome == 'gone' then
      disable_gone_webhook(subscriptions, ARGV[at + 6], ARGV[at + 12])
    end
    redis.call('ZADD', recent, tonumber(now), id)
    touched[recent] = true
    replies[i] = 1
  end
end
for recent in pairs(touched) do
  redis.call('ZREMRANGEBYRANK', recent, 0, -most_recent - 1)
  redis.call('EXPIRE', recent, kept)
end
return replies
