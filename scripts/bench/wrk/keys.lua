-- One fixed path, each request with the next key of a list: many clients that each send a request now and
-- then. Thread t of n takes the keys whose index is t mod n, prebuilt as one request each, in turn.
-- Arguments after "--": <keys file (one key per line)> <thread count>.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local requests_ = {}
local at = 1

function init(args)
   local nthreads = tonumber(args[2])
   local i = 0
   for key in io.lines(args[1]) do
      if key ~= "" then
         if i % nthreads == tid then
            wrk.headers["X-API-Key"] = key
            table.insert(requests_, wrk.format())
         end
         i = i + 1
      end
   end
end

function request()
   local r = requests_[at]
   at = at + 1
   if at > #requests_ then at = 1 end
   return r
end
