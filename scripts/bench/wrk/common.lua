-- Shared by the bench's wrk scripts: thread numbering, each thread's keys, a JSON summary in done().
-- Loaded with dofile() from fixed.lua and mix.lua; prints one line "BENCH_JSON {...}" that wrk.ts parses.

-- The key argument lists the keys of each thread: groups separated by ";", keys in a group by ",". Thread t
-- takes group t (mod their number). A thread with several keys sends them in turn, so that no run at 100k+
-- req/s uses up an institution key's daily requests for the endpoint.
function thread_keys(arg)
   local keys = {}
   if not arg or arg == "" then return keys end
   local groups = {}
   for g in string.gmatch(arg, "[^;]+") do table.insert(groups, g) end
   for k in string.gmatch(groups[(tid % #groups) + 1], "[^,]+") do table.insert(keys, k) end
   return keys
end

local counter = 0

function setup(thread)
   thread:set("tid", counter)
   counter = counter + 1
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      'BENCH_JSON {"requests":%d,"durationUs":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latencyUs":{"p50":%d,"p99":%d,"max":%d}}\n',
      summary.requests, summary.duration,
      e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(99), latency.max))
end
