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

-- Called from done(): a per-thread global counter summed over the threads.
function report.sum(name)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + (thread:get(name) or 0)
  end
  return total
end

-- One machine-readable line that run.sh parses; latencies in microseconds.
-- `extra` (optional) is appended to it as is: " key=value ...".
function report.print(summary, latency, extra)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d p999_us=%d non2xx=%d socket_errors=%d%s\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9),
    report.sum("non2xx"), socket_errors(summary.errors), extra or ""))
end

return report
