-- wrk script for BENCH.md workload E's natural questions: cycles through a
-- file of questions, one a line (questions.txt), each as
-- GET /v1/apps/bench/search?q=<question, URL-encoded>&limit=10&context=1.
-- Also counts the answers that hold at least one hit ("with_hits" on the
-- BENCH line), so that a fast figure of empty answers shows as such.
-- Usage: wrk -c1 -t1 -d10s -s questions.lua http://127.0.0.1:PORT -- /path/to/questions.txt
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local report = dofile(here .. "../report.lua")

local requests = {}
local next_request

function setup(thread)
  report.track(thread)
end

local function encode(text)
  return (text:gsub("[^%w%-%._~]", function(c)
    return string.format("%%%02X", string.byte(c))
  end))
end

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then
      requests[#requests + 1] = wrk.format("GET", "/v1/apps/bench/search?q=" .. encode(line) .. "&limit=10&context=1")
    end
  end
  assert(#requests > 0, "no questions in " .. args[1])
  next_request = ((thread_index or 1) - 1) % #requests  -- threads start at different questions
  non2xx = 0
  with_hits = 0
end

function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  report.count(status)
  if body and body:find('"hits":[{', 1, true) then
    with_hits = with_hits + 1
  end
end

function done(summary, latency)
  report.print(summary, latency, string.format(" with_hits=%d", report.sum("with_hits")))
end
