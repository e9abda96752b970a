-- Cycles through a list of request paths (one per line). Thread t of n sends the paths whose index is t mod n,
-- so that within one pass over the list no path is sent twice, whatever the thread count.
-- Arguments after "--": <api keys> <paths file> <thread count> <start offset>; a thread's keys (thread_keys
-- in common.lua) take turns over its paths.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local requests_ = {}
local at = 1

function init(args)
   local keys = thread_keys(args[1])
   local nthreads = tonumber(args[3])
   local offset = tonumber(args[4] or "0")
   local paths = {}
   for line in io.lines(args[2]) do
      if line ~= "" then table.insert(paths, line) end
   end
   -- Rotate by the offset, so that successive runs start at different places in the list.
   local n = #paths
   for i = 0, n - 1 do
      local index = (i + offset) % n
      if i % nthreads == tid then
         if #keys > 0 then wrk.headers["X-API-Key"] = keys[(#requests_ % #keys) + 1] end
         table.insert(requests_, wrk.format(nil, paths[index + 1]))
      end
   end
end

function request()
   local r = requests_[at]
   at = at + 1
   if at > #requests_ then at = 1 end
   return r
end
