-- Compare-and-set of one session. KEYS: hash, executed list, log. ARGV:
-- expected version ("" = absent), new version, state JSON, request mode
-- (`set` | `del` | `keep`), request JSON, the open cycle id, TTL in ms,
-- "1" to get the request back on a conflict, "decision id|cohort" of an
-- execution to remember in KEYS[2] (or ""), and the log length the state
-- was read with (the state written folds those entries in, so the log is
-- emptied), and the open cycle's guard key. Answers `{1}` when written,
-- or `{0, v, st, rq, rc, pq, pk, log...}` (the session as it is now) when
-- the version or the log did not match. A cycle's request logged with its
-- decision (`pq`, `pk`) becomes the request (`rq`, `rc`) when the open
-- cycle is on that evidence. Finding the new version already written is
-- `{1}`: the same write sent again (a connection lost on the way).
local v = redis.call('HGET', KEYS[1], 'v')
-- Our own write, sent again after a lost connection: done already.
if v and v == ARGV[2] then return {1} end
if (v or '') ~= ARGV[1] or redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[10]) then
  local r
  if ARGV[8] == '1' then
    r = redis.call('HMGET', KEYS[1], 'v', 'st', 'rq', 'rc', 'pq', 'pk')
  else
    r = redis.call('HMGET', KEYS[1], 'v', 'st')
  end
  local out = {0, r[1], r[2], r[3] or false, r[4] or false, r[5] or false, r[6] or false}
  local log = redis.call('LRANGE', KEYS[3], 0, -1)
  for i = 1, #log do out[7 + i] = log[i] end
  return out
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'st', ARGV[3])
redis.call('DEL', KEYS[3])
if ARGV[4] == 'set' then
  redis.call('HSET', KEYS[1], 'rq', ARGV[5], 'rc', ARGV[6])
elseif ARGV[4] == 'del' then
  redis.call('HDEL', KEYS[1], 'rq', 'rc')
else
  local pk = redis.call('HGET', KEYS[1], 'pk')
  local rc = redis.call('HGET', KEYS[1], 'rc')
  if pk and ARGV[11] ~= '' and pk == ARGV[11] then
    redis.call('HSET', KEYS[1], 'rq', redis.call('HGET', KEYS[1], 'pq'), 'rc', ARGV[6])
  elseif rc and rc ~= ARGV[6] then
    redis.call('HDEL', KEYS[1], 'rq', 'rc')
  end
end
redis.call('HDEL', KEYS[1], 'pq', 'pk')
redis.call('PEXPIRE', KEYS[1], ARGV[7])
remember_executed(KEYS[2], ARGV[9], ARGV[7])
return {1}
