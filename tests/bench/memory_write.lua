-- wrk script for the mixed sqlite workload (run_mixed.sh): write one memory
-- of ~100 bytes for user u{N} of app "bench", N uniform in 1..sessions (no
-- embedder: the memory is stored and indexed by words only).
-- Usage: wrk -c10 -t1 -d30s -s memory_write.lua http://127.0.0.1:PORT -- [sessions=1000]
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
    local path = string.format("/v1/apps/bench/users/u%d/memories", n)
    local body = string.format('{"memories":[{"text":"user %d prefers the aisle seat on long flights and tea at %d"}]}', n, n)
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
