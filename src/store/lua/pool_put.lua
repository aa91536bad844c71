-- Holds an option set. KEYS: pools, counts, recency. ARGV: set id, JSON,
-- candidate count, now (ms), TTL (ms), candidates allowed per session.
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
local total = 0
for _, n in ipairs(redis.call('HVALS', KEYS[2])) do total = total + tonumber(n) end
local max = tonumber(ARGV[6])
while total > max do
  local oldest = redis.call('ZPOPMIN', KEYS[3])
  if #oldest == 0 then break end
  local n = tonumber(redis.call('HGET', KEYS[2], oldest[1]) or '0')
  redis.call('HDEL', KEYS[1], oldest[1])
  redis.call('HDEL', KEYS[2], oldest[1])
  total = total - n
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return total
