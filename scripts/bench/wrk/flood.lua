-- Floods from one client address (X-Forwarded-For, honoured by a stack with TRUST_PROXY=127.0.0.1):
-- "registrations" posts a new registration each request, "keys" sends a new random well-formed key each
-- request, "healthz" asks /healthz. Arguments after "--": <kind>.
dofile(os.getenv("BENCH_LUA_DIR") .. "/common.lua")

local kind = "healthz"
local n = 0
local headers = {}

function init(args)
   kind = args[1]
   math.randomseed(os.time() * 100 + tid)
   for name, value in pairs(wrk.headers) do headers[name] = value end
   headers["X-Forwarded-For"] = "203.0.113.50"
end

function request()
   n = n + 1
   if kind == "registrations" then
      headers["Content-Type"] = "application/json"
      return wrk.format("POST", "/api/v1/developers", headers, string.format('{"name":"Flood","email":"flood-%d-%d@bench.invalid"}', tid, n))
   elseif kind == "keys" then
      local hex = {}
      for i = 1, 40 do hex[i] = string.format("%x", math.random(0, 15)) end
      headers["X-API-Key"] = "svc_live_" .. table.concat(hex)
      return wrk.format("GET", "/api/v1/stats", headers)
   end
   return wrk.format("GET", "/healthz", headers)
end
