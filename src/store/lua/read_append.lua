-- Reads a session and appends a change to its log, in one step: a
-- loop-guard claim taken with the read (an LLM turn), or a decision made
-- without the state on facts about it (`Update::DecidedIf`). KEYS: hash,
-- log, executed list. ARGV: the logged change (JSON), TTL in ms, the most
-- entries the log may hold, the request of the cycle the change opens
-- (JSON, or "") with that cycle's guard key, kept as `pq`, `pk` until the
-- cycle is written, and "decision id|cohort" of an execution among the
-- change's cases (or "").
-- Answers `{appended, v, st, false, false, false, false, log...}`: when
-- appended (1), the change is the log's last entry; a full log takes
-- nothing (0).
local r = redis.call('HMGET', KEYS[1], 'v', 'st')
local appended = 0
if redis.call('LINDEX', KEYS[2], -1) == ARGV[1] then
  -- The same entry, sent again after a lost connection.
  appended = 1
elseif redis.call('LLEN', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'pq', ARGV[4], 'pk', ARGV[5]) end
  remember_executed(KEYS[3], ARGV[6], ARGV[2])
  appended = 1
end
local log = redis.call('LRANGE', KEYS[2], 0, -1)
if r[1] or #log > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
local out = {appended, r[1], r[2], false, false, false, false}
for i = 1, #log do out[7 + i] = log[i] end
return out
