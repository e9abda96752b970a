-- One fixed request, repeated: wrk builds it once per thread (no request() function, the fast path).
-- Arguments after "--": <api key> (empty for none).
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

function init(args)
   set_key(args[1])
end
