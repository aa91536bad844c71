-- The replicas' guardrail windows: KEYS epoch, windows (a hash: replica
-- id -> its windows' JSON), seen (a sorted set: replica id -> when it last
-- published, wall-clock ms). ARGV: replica id, JSON, the epoch the replica
-- has seen, now, keep (ms). Publishes this replica's windows unless a
-- reset happened since it last looked (answers nil: it must clear its own
-- first), drops replicas silent for `keep`, and answers the others'.
if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[3]) then
  return false
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. (tonumber(ARGV[4]) - tonumber(ARGV[5])))
for _, id in ipairs(gone) do
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
end
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
local all = redis.call('HGETALL', KEYS[2])
local out = {}
for i = 1, #all, 2 do
  if all[i] ~= ARGV[1] then
    table.insert(out, all[i + 1])
  end
end
return out
