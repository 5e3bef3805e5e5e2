--[[
  Accepts many plain executions at once (no Idempotency-Key, parent, redrive or call-back: the
  runs of schedule ticks falling due together), each exactly as accept-execution.lua accepts one
  and with its reply: one script run and one round trip for a batch instead of one each. Each
  stands alone: one refused changes nothing of the others.

  Record fields (RECORD_FIELDS in execution-record.ts): those of accept-execution.lua for a run
  without a parent or an Idempotency-Key.

  KEYS[1] running sorted set (all accounts)
  KEYS[2] the service's execution counters

  ARGV[1] what the batch shares, a JSON object: accept-execution.lua's max_running, budget,
          window_ms, bytes_elsewhere, history, webhooks, run_events_bound, run_events_channel, publish
          and execution_prefix, and the names of each execution's keys of its account as templates
          (history-index.lua's history_key: "\1" the account, "\2" the storage window's index):
    account_running_key  the account's running set
    bytes_key            the account's stored bytes in a window
    rows_key             the account's list rows of RUNNING executions
  ARGV[2] the number of executions, n; then n groups, each of 7 values and the record's fields:
    +0  execution id (its hash is execution_prefix .. id)
    +1  start time, epoch ms, as the record keeps it
    +2  account
    +3  Choreo id
    +4  start of its storage window, epoch ms
    +5  index of its storage window
    +6  its list row (list-row.lua)
    +7  the number of values of its record's fields that follow, 2m: field, value, … (m pairs)

  Returns one reply per execution, in order: accept-execution.lua's replies (1 accepted or
  accepted already by this very call, -1, -2, {-3, wait}, -4).
]]
--- @include "accept-record.lua"
local shared = cjson.decode(ARGV[1])
local replies = {}
local at = 3
for n = 1, tonumber(ARGV[2]) do
  local id, starttime, account = ARGV[at], ARGV[at + 1], ARGV[at + 2]
  local window = ARGV[at + 5]
  local count = tonumber(ARGV[at + 7])
  local args = {
    id = id,
    starttime = starttime,
    account = account,
    choreo = ARGV[at + 3],
    window_start = tonumber(ARGV[at + 4]),
    list_row = ARGV[at + 6],
    max_running = shared.max_running,
    budget = shared.budget,
    window_ms = shared.window_ms,
    bytes_elsewhere = shared.bytes_elsewhere,
    request_digest = '',
    redrive_of = '',
    history = shared.history,
    webhooks = shared.webhooks,
    run_events_bound = shared.run_events_bound,
    run_events_channel = shared.run_events_channel,
    publish = shared.publish,
    execution_prefix = shared.execution_prefix,
  }
  local keys = {
    record = shared.execution_prefix .. id,
    running = KEYS[1],
    account_running = history_key(shared.account_running_key, account),
    bytes_now = history_key(shared.bytes_key, account, window),
    bytes_before = history_key(shared.bytes_key, account, tostring(tonumber(window) - 1)),
    rows = history_key(shared.rows_key, account),
    counts = KEYS[2],
  }
  local fields = { unpack(ARGV, at + 8, at + 7 + count) }
  replies[n] = accept_record(keys, args, fields, 1, #fields)
  at = at + 8 + count
end
return replies
