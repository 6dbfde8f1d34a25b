-- report.lua: console helper (CONSOLE.md): who uses an app the most.
--
--   top_users("shop", 5)  -> up to 5 rows {user, sessions, events}, most sessions first
--                            (ties: most events first, then by user name)
--   app_report("shop")    -> {sessions, users, events, lanes, top_users}
-- Looks at the newest 1000 sessions and lanes of the app (the lists' maximum page).

local function users_of(app)
  local by_user, order = {}, {}
  for _, row in ipairs(sessions.list{app = app, limit = 1000}) do
    local entry = by_user[row.user]
    if entry == nil then
      entry = {user = row.user, sessions = 0, events = 0}
      by_user[row.user] = entry
      order[#order + 1] = entry
    end
    entry.sessions = entry.sessions + 1
    entry.events = entry.events + row.events
  end
  return order
end

function top_users(app, n)
  assert(type(app) == "string" and app ~= "", "top_users(app, n): app must be an app name")
  n = n or 10
  local users = users_of(app)
  table.sort(users, function(a, b)
    if a.sessions ~= b.sessions then return a.sessions > b.sessions end
    if a.events ~= b.events then return a.events > b.events end
    return a.user < b.user
  end)
  local top = {}
  for i = 1, math.min(n, #users) do top[i] = users[i] end
  return top
end

function app_report(app, n)
  local users = users_of(app)
  local events = 0
  for _, entry in ipairs(users) do events = events + entry.events end
  return {
    sessions = sessions.count{app = app},
    users = #users,
    events = events,
    lanes = #lanes.list{app = app, limit = 1000},
    top_users = top_users(app, n or 5),
  }
end
