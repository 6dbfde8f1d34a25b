-- wrk script for BENCH.md workload B: read the newest 50 events of session
-- u{N}/s{N} of app "bench" (pre-filled by prefill.py), N uniform in 1..sessions.
-- Usage: wrk -c50 -t2 -d30s -s read.lua http://127.0.0.1:PORT -- [sessions=1000]
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local report = dofile(here .. "report.lua")

local requests = {}

function setup(thread)
  report.track(thread)
end

function init(args)
  local sessions = tonumber(args[1]) or 1000
  for n = 1, sessions do
    local path = string.format("/v1/apps/bench/users/u%d/sessions/s%d?num_recent_events=50", n, n)
    requests[n] = wrk.format("GET", path)
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
