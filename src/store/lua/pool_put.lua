-- Holds an option set, unless this version of it is held with other
-- content. KEYS: pools, counts, recency, contents. ARGV: set id, JSON
-- (empty when the set is too large to hold), candidate count, now (ms),
-- TTL (ms), candidates allowed per session, version, content digest (64
-- hex digits: `content_digest`).
-- Answers -1 when this version is held with other content (nothing
-- changes: exactly one content wins a race to hold a version), -2 when
-- the set is too large to hold (nothing changes), else the candidates the
-- session holds.
-- `contents` maps a set to its digest followed by its version (the
-- digest's length is fixed). A set held without an entry there (written
-- by an older ladderd) has no known content, and is replaced.
local held = redis.call('HGET', KEYS[4], ARGV[1])
if held and string.sub(held, 65) == ARGV[7] and string.sub(held, 1, 64) ~= ARGV[8] then
  return -1
end
local max = tonumber(ARGV[6])
if tonumber(ARGV[3]) > max then
  return -2
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[8] .. ARGV[7])
local total = 0
for _, n in ipairs(redis.call('HVALS', KEYS[2])) do total = total + tonumber(n) end
while total > max do
  local oldest = redis.call('ZPOPMIN', KEYS[3])
  if #oldest == 0 then break end
  local n = tonumber(redis.call('HGET', KEYS[2], oldest[1]) or '0')
  redis.call('HDEL', KEYS[1], oldest[1])
  redis.call('HDEL', KEYS[2], oldest[1])
  redis.call('HDEL', KEYS[4], oldest[1])
  total = total - n
end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return total
