-- Error counting and the one-line result shared by the wrk scripts. wrk counts
-- only statuses >= 400 as errors; BENCH.md counts every non-2xx, so each thread
-- counts them itself and done() sums the threads and adds socket errors.
local report = {}

local threads = {}

-- Called from the script's setup(thread) in the main Lua state.
function report.track(thread)
  thread:set("thread_index", #threads + 1)
  table.insert(threads, thread)
end

-- Called from the script's response() in each thread's Lua state.
function report.count(status)
  if status < 200 or status > 299 then
    non2xx = (non2xx or 0) + 1
  end
end

local function socket_errors(errors)
  return errors.connect + errors.read + errors.write + errors.timeout
end

local function non2xx_total()
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + (thread:get("non2xx") or 0)
  end
  return total
end

-- One machine-readable line that run.sh parses; latencies in microseconds.
function report.print(summary, latency)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d p999_us=%d non2xx=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9),
    non2xx_total(), socket_errors(summary.errors)))
end

return report
