--[[
  Records attempts of deliveries, each if its delivery is still pending in the round the attempt
  was made for (a redelivery starts a new round): `delivered` and `dead` are final. A 410 also
  disables the subscription, whose GET then says so. The attempts that end in one turn of a
  worker's event loop go in one call; each stands alone.

  KEYS[1] the webhook outbox sorted set: not written; named so that the call runs where the
          deliveries' keys are, which share its hash slot

  ARGV[1] the number of attempts, n; then n groups of 8 values, the i-th group from
          ARGV[2 + 8 * (i - 1)]:
    +0  the delivery's hash (`state round attempts laststatus lasterror lastattempt nextattempt
        deliveredat webhook`; a key of KEYS[1]'s hash slot, named by the caller)
    +1  the account's subscriptions hash (the delivery's `webhook` field names its entry)
    +2  the round the attempt was made in
    +3  when it ended, epoch ms
    +4  the endpoint's HTTP status (0: none, the request failed)
    +5  why it failed ('' when delivered)
    +6  the outcome: delivered, retry (at +7), dead, or gone (a 410: dead and disabled)
    +7  epoch ms of the next attempt, with retry; '' otherwise

  Returns one reply per attempt, in order: 1 recorded, 0 not: the delivery is final, gone, or in
  another round
]]
--- @include "webhook-attempt.lua"

local function record(delivery, subscriptions, round, now, status, failure, outcome, next_attempt)
  local state = redis.call('HMGET', delivery, 'state', 'round', 'webhook', 'attempts')
  if state[1] ~= 'pending' or tonumber(state[2]) ~= tonumber(round) then
    return 0
  end
  -- One HSET of every field the attempt changes: a delivery's attempt is the most frequent write here.
  local fields = {}
  add_attempt_fields(fields, (tonumber(state[4]) or 0) + 1, now, status, failure, outcome, next_attempt)
  redis.call('HSET', delivery, unpack(fields))
  if outcome ~= 'retry' then
    redis.call('HDEL', delivery, 'nextattempt')
  end
  if outcome == 'gone' then
    disable_gone_webhook(subscriptions, state[3], now)
  end
  return 1
end

local replies = {}
for i = 1, tonumber(ARGV[1]) do
  local at = 2 + 8 * (i - 1)
  replies[i] = record(unpack(ARGV, at, at + 7))
end
return replies
