-- wrk script for BENCH.md workload E: the same search GET over and over.
-- Usage: wrk -c1 -t1 -d10s -s query.lua http://127.0.0.1:PORT -- '/v1/apps/bench/search?q=...&limit=10&context=1'
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local report = dofile(here .. "../report.lua")

local formatted

function setup(thread)
  report.track(thread)
end

function init(args)
  formatted = wrk.format("GET", args[1])
  non2xx = 0
end

function request()
  return formatted
end

function response(status)
  report.count(status)
end

function done(summary, latency)
  report.print(summary, latency)
end
