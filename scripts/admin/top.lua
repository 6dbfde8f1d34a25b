-- top.lua: console helper (CONSOLE.md): the sessions of an app with the most events.
--
--   top_sessions("shop", 5)  -> up to 5 rows {app, user, id, events, updated_at, expires_at},
--                               most events first (ties: most recently updated first)
-- Looks at the newest 1000 sessions of the app (sessions.list's maximum page).

function top_sessions(app, n)
  assert(type(app) == "string" and app ~= "", "top_sessions(app, n): app must be an app name")
  n = n or 10
  local rows = sessions.list{app = app, limit = 1000}
  table.sort(rows, function(a, b)
    if a.events ~= b.events then return a.events > b.events end
    return tostring(a.updated_at) > tostring(b.updated_at)
  end)
  local top = {}
  for i = 1, math.min(n, #rows) do top[i] = rows[i] end
  return top
end
