-- wrk script for the mixed sqlite workload (run_mixed.sh): set key "step" of
-- session u{N}/s{N} of app "bench" (pre-filled), N uniform in 1..sessions.
-- Usage: wrk -c10 -t1 -d30s -s patch.lua http://127.0.0.1:PORT -- [sessions=1000]
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local report = dofile(here .. "report.lua")

local requests = {}

function setup(thread)
  report.track(thread)
end

function init(args)
  local sessions = tonumber(args[1]) or 1000
  local headers = { ["Content-Type"] = "application/json" }
  for n = 1, sessions do
    local path = string.format("/v1/apps/bench/users/u%d/sessions/s%d/state", n, n)
    requests[n] = wrk.format("PATCH", path, headers, string.format('{"state_delta":{"step":%d}}', n))
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
