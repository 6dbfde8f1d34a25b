-- A trivial append hook for BENCH.md workload F: reads one field and passes the event on.
mnemo.on("append", function(ctx, next)
  local _ = ctx.event.author
  return next()
end)
