-- One fixed request, repeated. With one key per thread (or none) wrk builds it once per thread: no request()
-- function, the fast path. With several, each thread sends one prebuilt request per key in turn.
-- Arguments after "--": <api keys> (empty for none; see thread_keys in common.lua).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local requests_ = {}
local at = 1

function init(args)
   local keys = thread_keys(args[1])
   if #keys == 1 then wrk.headers["X-API-Key"] = keys[1] end
   if #keys <= 1 then return end
   for _, key in ipairs(keys) do
      wrk.headers["X-API-Key"] = key
      table.insert(requests_, wrk.format())
   end
   -- Defined here, before wrk asks thread 0's script whether it has one.
   request = function()
      local r = requests_[at]
      at = at + 1
      if at > #requests_ then at = 1 end
      return r
   end
end
