-- Shared by the bench's wrk scripts: thread numbering, optional status counting, JSON summary in done().
-- Loaded with dofile() from fixed.lua and mix.lua; prints one line "BENCH_JSON {...}" that wrk.ts parses.

local threads = {}

-- --accept-encoding: every request asks for compressed bodies, as browsers and most HTTP clients do.
local accept_encoding = os.getenv("BENCH_ACCEPT_ENCODING")
if accept_encoding and accept_encoding ~= "" then wrk.headers["Accept-Encoding"] = accept_encoding end

-- The key argument lists the keys of each thread: groups separated by ";", keys in a group by ",". Thread t
-- takes group t (mod their number). A thread with several keys sends them in turn, so that one 10 s run at
-- 100k+ req/s does not use up an institution key's 500,000 daily requests for the endpoint.
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
   table.insert(threads, thread)
end

-- Counting statuses makes wrk parse every response in Lua, which costs it throughput: only in diagnostic runs.
if os.getenv("BENCH_COUNT_STATUS") == "1" then
   statuses = {}
   function response(status, headers, body)
      statuses[status] = (statuses[status] or 0) + 1
   end
end

function done(summary, latency, requests)
   local counts = {}
   for _, thread in ipairs(threads) do
      local s = thread:get("statuses")
      if type(s) == "table" then
         for status, n in pairs(s) do
            local k = tostring(status)
            counts[k] = (counts[k] or 0) + n
         end
      end
   end
   local parts = {}
   for status, n in pairs(counts) do
      table.insert(parts, string.format('"%s":%d', status, n))
   end
   local e = summary.errors
   io.write(string.format(
      'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f},"statuses":{%s}}\n',
      summary.requests, summary.duration, summary.bytes,
      e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
      table.concat(parts, ",")))
end
