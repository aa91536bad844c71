-- The rollout trip: KEYS trip, epoch, windows, seen. ARGV: `read` |
-- `trip` (ARGV[2] the trip's JSON, kept if one is already set) | `reset`
-- (also drops every replica's shared windows). Answers the trip (or nil)
-- and the epoch.
if ARGV[1] == 'trip' then
  redis.call('SET', KEYS[1], ARGV[2], 'NX')
elseif ARGV[1] == 'reset' then
  redis.call('DEL', KEYS[1], KEYS[3], KEYS[4])
  redis.call('INCR', KEYS[2])
end
return {redis.call('GET', KEYS[1]), tonumber(redis.call('GET', KEYS[2]) or '0')}
