-- Appends a decision's session change to the session's log without
-- reading the session (a decision that did not depend on it). KEYS as
-- `WRITE`. ARGV: the logged change (JSON), TTL in ms, "decision id|cohort"
-- (or ""), "close" when the change closes the open cycle (its request goes
-- too), the most entries the log may hold, and the length from which it
-- should be folded. Answers `{1}` when appended; `{2, v, st, rq, rc, pq,
-- pk, log...}` when appended to a log that should be folded (the session
-- as it is now, to fold with a compare-and-set after answering); or, when
-- the log is full, `{0, ...}` the same without appending. An entry that is
-- the log's last already (each carries a nonce) is not appended again.
local function session(status)
  local r = redis.call('HMGET', KEYS[1], 'v', 'st')
  local out = {status, r[1], r[2], false, false, false, false}
  local log = redis.call('LRANGE', KEYS[3], 0, -1)
  for i = 1, #log do out[7 + i] = log[i] end
  return out
end
local n = redis.call('LLEN', KEYS[3])
-- The same entry, sent again after a lost connection: appended already.
if n > 0 and redis.call('LINDEX', KEYS[3], -1) == ARGV[1] then return {1} end
if n >= tonumber(ARGV[5]) then return session(0) end
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[4] == 'close' then redis.call('HDEL', KEYS[1], 'rq', 'rc', 'pq', 'pk') end
remember_executed(KEYS[2], ARGV[3], ARGV[2])
if n + 1 >= tonumber(ARGV[6]) then return session(2) end
return {1}
