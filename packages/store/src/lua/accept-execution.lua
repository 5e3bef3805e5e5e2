--[[
  Accepts an execution: creates its record in RUNNING status, waiting for a take (host ''), and
  indexes it as running, unless the account already has its quota of running executions, or
  storing it would take the account past its budget of stored bytes.

  The budget counts the bytes of the values an account's executions store (records when accepted,
  outputs at the end) over the retention period, so that what one account keeps in Redis stays
  bounded. It is a sliding window made of two fixed windows as long as the retention: this one,
  and the one before it weighted by how much of it still falls within the last retention period.

  Record fields (RECORD_FIELDS in execution-record.ts): all of a new record, given in ARGV;
  `idempotency` (idempotencyEntry) and `notify` (notifyEnd, among ARGV when a caller waits);
  `terminate cancel` (terminationRequested, termination-flag.lua) for a child refused its run,
  below. Of a child's parent: reads `status terminate cancel`.

  A child execution (a `parent` among the fields) enters its parent's set of running children,
  through which its parent's termination or end terminates it (terminate-descendants.lua). A
  child accepted when its parent has ended or its termination has been requested (the parent's
  worker was starting it when the request came) is accepted with its own termination requested
  instead: whoever takes it ends it before its first step, and its parent, stopping, ends it.

  A redrive (`redrive_of` given) is accepted only while the execution it redrives has ended ERROR
  or TERMINATED_LIMIT and no earlier redrive of it is still RUNNING (one at a time); the record it
  redrives then names it (`redrivenBy`, the latest), and the new one starts from the progress given
  (the entries of the old run's progress a redrive keeps, redrive-progress.ts), which count against
  the budget like the record's values. Of the redriven record: reads `status redrivenBy`, writes
  `redrivenBy`; of its previous redrive: reads `status`.

  KEYS[1] execution hash
  KEYS[2] running sorted set (all accounts)
  KEYS[3] running set of the execution's account
  KEYS[4] the account's stored bytes in the current window
  KEYS[5] the account's stored bytes in the window before it
  KEYS[6] the entry of the run's Idempotency-Key in its account (untouched without one)
  KEYS[7] the account's list rows of RUNNING executions
  KEYS[8] the service's execution counters (field `started` counts this acceptance)
  KEYS[9] the parent's execution hash (untouched unless the execution is a child)
  KEYS[10] the parent's set of running children (untouched unless the execution is a child)
  KEYS[11] the redriven execution's hash (untouched unless the execution is a redrive)
  KEYS[12] the execution's progress hash (untouched unless the execution is a redrive)
  KEYS[13] the parent's run events (run-events.lua): a child accepted here adds `child_event`

  ARGV[1] the acceptance, a JSON object:
    id              execution id
    starttime       start time, epoch milliseconds, as a string (as the record keeps it)
    max_running     maximum running executions for the account (0: no limit)
    budget          budget of stored bytes for the account (0: no limit)
    window_ms       window length, milliseconds
    window_start    start of the current window, epoch milliseconds
    bytes_elsewhere true when the account's stored bytes are counted elsewhere (with shards, in the
                    control slot, account-reservations.ts): KEYS[4] is then left alone
    request_digest  digest of what the run asks for (Choreo, inputs, options), or '' without an
                    Idempotency-Key; its entry keeps `<execution id> <digest>` for as long as the
                    record is kept: without expiry while it runs, as the record; the record names
                    the entry (field `idempotency`), and the end of the run gives it the record's
                    expiry
    account         the execution's account
    choreo          the execution's Choreo id
    history         the run history's key templates (history-index.lua), whose every index the
                    execution enters
    webhooks        where the start is queued for the account's webhooks, when one of them
                    wants it (webhook-outbox.lua)
    list_row        the execution's list row (starttime, host, worker, termination flag, choreo,
                    tab-separated)
    child_event     a child's `child.started` run event for its parent ('' for none)
    run_events_bound    run events: how many the list keeps
    run_events_channel  run events: the channel on which to publish that some were added
    publish             PUBLISH, or SPUBLISH on a Cluster: the command that publishes run events and ends
    redrive_of      the id of the execution this one redrives ('' for none)
    execution_prefix  the name of an execution's hash less its id (its previous redrive's)
    progress_entries  how many progress entries end ARGV (0 for none)
  ARGV[2..] field, value, field, value … of the record: arguments of their own, so that the
          inputs are not escaped into ARGV[1] and decoded out of it again; then, for a redrive,
          address, value, address, value … of its progress entries (progress_entries of them)

  Returns (ScriptReply in script-replies.ts)
   Done (1)                 accepted, or accepted already by this very call: a client that lost
                            the reply on a dropped connection sends it again, and ids are random,
                            so a record with the same id and start time is this one
   IdExists (-1)            another execution has this id
   QuotaExceeded (-2)       the account is at its quota of running executions
   {BudgetExceeded (-3), wait}  the account is at its budget of stored bytes; wait: seconds until
                            it may have room
   LargerThanBudget (-4)    the record alone is larger than the budget: it would never fit
   {Replay (3), id, same}   nothing accepted: the Idempotency-Key started execution `id` already;
                            same: 1 when it asked for the same run, 0 when for another
   {NotRedrivable (-9), status}  nothing accepted: the execution to redrive is not ERROR or
                            TERMINATED_LIMIT (status '' when it is gone)
   {RedriveRunning (-10), id}  nothing accepted: redrive `id` of it is still RUNNING
]]
--- @include "accept-record.lua"
local args = cjson.decode(ARGV[1])
-- The record's fields and values from ARGV[2] (their values are what the budget counts); the
-- redrive's progress entries after them.
local keys = {
  record = KEYS[1], running = KEYS[2], account_running = KEYS[3], bytes_now = KEYS[4], bytes_before = KEYS[5],
  idempotency = KEYS[6], rows = KEYS[7], counts = KEYS[8], parent = KEYS[9], children = KEYS[10],
  redriven = KEYS[11], progress = KEYS[12], parent_events = KEYS[13],
}
return accept_record(keys, args, ARGV, 2, #ARGV - 2 * (args.progress_entries or 0))
