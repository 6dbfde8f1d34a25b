-- wrk script for BENCH.md workload A: append one ~500-byte event to session
-- u{N}/s{N} of app "bench", N uniform in 1..sessions, creating it if missing.
-- Usage: wrk -c50 -t2 -d30s -s append.lua http://127.0.0.1:PORT -- [sessions=1000]
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local payload = dofile(here .. "payload.lua")
local report = dofile(here .. "report.lua")

local requests = {}

function setup(thread)
  report.track(thread)
end

-- Every request is formatted once up front so the hot path is a table lookup.
function init(args)
  local sessions = tonumber(args[1]) or 1000
  local body = '{"events":[' .. payload.event_json() .. '],"create_if_missing":true}'
  local headers = { ["Content-Type"] = "application/json" }
  for n = 1, sessions do
    local path = string.format("/v1/apps/bench/users/u%d/sessions/s%d/events", n, n)
    requests[n] = wrk.format("POST", path, headers, body)
  end
  math.randomseed(os.time() + (thread_index or 0) * 7919)
  non2xx = 0
end

function request()
  return requests[math.random(#requests)]
end

function response(status)
  report.count(status)
end

function done(summary, latency)
  report.print(summary, latency)
end
