-- wrk script for workload C's read check: the same GET on one session over and
-- over, to compare reading the newest 50 events of a long and a short session.
-- Usage: wrk -c1 -t1 -d10s -s read_one.lua http://127.0.0.1:PORT -- /v1/apps/.../sessions/ID?num_recent_events=50
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
