-- summarize.lua: mnemod's default summary trigger and summarizer (SCRIPTING.md).
--
-- should_summarize follows summary.trigger: "any" or "all" of events and
-- tokens since the last summary, and idle (the pause before this append).
-- summarize is extractive and needs no model: it keeps the decisions,
-- commands, file paths, URLs and open questions found in the events,
-- within summary.max_words words, as one text starting with "Summary:".
-- Replace this file (or register your own hooks in hooks/) to change either.

local M = {}

-- ---- trigger ---------------------------------------------------------------

function M.trigger_met(trigger, stats)
  local mode, conditions = "any", trigger.any
  if trigger.all ~= nil then mode, conditions = "all", trigger.all end
  if type(conditions) ~= "table" then return false end
  local checks = {
    {conditions.events, stats.events_since_summary},
    {conditions.tokens, stats.tokens_since_summary},
    {conditions.idle, stats.seconds_since_last_event},
  }
  local given, met = 0, 0
  for _, check in ipairs(checks) do
    local threshold, value = check[1], check[2]
    if type(threshold) == "number" then
      given = given + 1
      if (value or 0) >= threshold then met = met + 1 end
    end
  end
  if given == 0 then return false end
  if mode == "any" then return met > 0 end
  return met == given
end

-- ---- extraction ------------------------------------------------------------

-- The text of an event's content: a string, or an object's string "text".
local function content_text(event)
  local content = event.content
  if type(content) == "string" then return content end
  if type(content) == "table" and type(content.text) == "string" then return content.text end
  return nil
end

local DECISION_CUES = {
  "decided", "decision", "we will ", "we'll ", "let's ", "agreed", "going with", "settled on",
  "chose ", "choose ", "we should ", "will use ", "switch to ", "instead of ",
}

-- Sentences end at . ! ? followed by white space (so URLs and paths stay whole) or at a line break.
local function sentences(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local rest = line .. " "
    local start = 1
    while start <= #rest do
      local _, stop = rest:find("[%.!?]+%s", start)
      local piece = rest:sub(start, (stop or #rest + 1) - 1)
      piece = piece:gsub("^%s+", ""):gsub("%s+$", "")
      if #piece > 0 then out[#out + 1] = piece end
      start = (stop or #rest) + 1
    end
  end
  return out
end

local function is_decision(sentence)
  local lower = sentence:lower()
  for _, cue in ipairs(DECISION_CUES) do
    if lower:find(cue, 1, true) then return true end
  end
  return false
end

local function strip_trailing_punctuation(s)
  return (s:gsub("[%.,;:!%?%)%]'\"]+$", ""))
end

local function add_unique(list, seen, item)
  if item == nil or item == "" or seen[item] then return end
  seen[item] = true
  list[#list + 1] = item
end

local function find_urls(text, found)
  for url in text:gmatch("https?://[^%s<>\"'`]+") do
    add_unique(found.urls, found.seen, strip_trailing_punctuation(url))
  end
end

local function find_paths(text, found)
  local without_urls = text:gsub("%a[%w+.-]*://[^%s]+", " ")
  for path in (" " .. without_urls):gmatch("[%s\"'`(=]([~%.]?/[%w%._%-/]+)") do
    path = strip_trailing_punctuation(path)
    if path:find("/", 2, true) or path:find("%.%w+$") then add_unique(found.paths, found.seen, path) end
  end
end

local COMMAND_WORDS = {
  git = true, make = true, npm = true, yarn = true, pip = true, python = true, python3 = true, cargo = true,
  go = true, docker = true, kubectl = true, systemctl = true, sudo = true, curl = true, wget = true,
  ssh = true, scp = true, rsync = true, ls = true, cd = true, cat = true, grep = true, sed = true,
  awk = true, find = true, rm = true, mv = true, cp = true, mkdir = true, chmod = true, chown = true,
  tar = true, cmake = true, ctest = true, apt = true, ["apt-get"] = true, brew = true, journalctl = true,
  psql = true, mysql = true, redis = true, ["redis-cli"] = true, terraform = true, ansible = true, node = true,
}

local function looks_like_command(s)
  local first = s:match("^([%w%._%-]+)")
  return first ~= nil and (COMMAND_WORDS[first] or first:find("^%./")) ~= nil and s:find(" ", 1, true) ~= nil
end

local function find_commands(text, found)
  for code in text:gmatch("`([^`\n]+)`") do
    if looks_like_command(code) then add_unique(found.commands, found.seen, code) end
  end
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local command = line:match("^%s*%$%s+(.+)$")
    if command then add_unique(found.commands, found.seen, (command:gsub("%s+$", ""))) end
  end
end

local function find_tool_commands(event, found)
  if type(event.tool_calls) ~= "table" then return end
  for _, call in ipairs(event.tool_calls) do
    local args = type(call) == "table" and call.arguments
    if type(args) == "table" and type(args.command) == "string" then
      add_unique(found.commands, found.seen, args.command)
    end
  end
end

local function find_prose(event, text, found)
  for _, sentence in ipairs(sentences(text)) do
    if sentence:sub(-1) == "?" and event.role == "user" then
      add_unique(found.questions, found.seen, sentence)
    elseif is_decision(sentence) then
      add_unique(found.decisions, found.seen, sentence)
    end
  end
end

function M.extract(events)
  local found = {decisions = {}, commands = {}, paths = {}, urls = {}, questions = {}, seen = {}}
  for _, event in ipairs(events) do
    local text = content_text(event)
    if text then
      find_commands(text, found)
      find_urls(text, found)
      find_paths(text, found)
      find_prose(event, text, found)
    end
    find_tool_commands(event, found)
  end
  return found
end

-- ---- composition within max_words ------------------------------------------

local SECTIONS = {
  {key = "decisions", title = "Decisions", quote = false},
  {key = "commands", title = "Commands", quote = true},
  {key = "paths", title = "Paths", quote = false},
  {key = "urls", title = "URLs", quote = false},
  {key = "questions", title = "Open questions", quote = false},
}

local function word_count(text)
  local n = 0
  for _ in text:gmatch("%S+") do n = n + 1 end
  return n
end

-- Takes items round-robin across the sections (so each kind is represented),
-- newest first within a section, while the word budget lasts.
local function choose(found, budget)
  local chosen, used, progress = {}, 0, true
  for _, section in ipairs(SECTIONS) do chosen[section.key] = {} end
  local round = 0
  while progress do
    progress = false
    round = round + 1
    for _, section in ipairs(SECTIONS) do
      local items = found[section.key]
      local item = items[#items - round + 1]
      if item then
        local words = word_count(item) + (#chosen[section.key] == 0 and 2 or 0)
        if used + words <= budget then
          table.insert(chosen[section.key], 1, item)
          used = used + words
          progress = true
        end
      end
    end
  end
  return chosen, used
end

local function clip_words(text, n)
  if n <= 0 then return "" end
  local words = {}
  for word in text:gmatch("%S+") do
    if #words >= n then
      words[#words + 1] = "..."
      break
    end
    words[#words + 1] = word
  end
  return table.concat(words, " ")
end

function M.compose(events, previous, max_words)
  local found = M.extract(events)
  local header = string.format("Summary: %d events.", #events)
  local budget = max_words - word_count(header)
  local chosen, used = choose(found, budget)
  local parts = {header}
  for _, section in ipairs(SECTIONS) do
    local items = chosen[section.key]
    if #items > 0 then
      local shown = {}
      for i, item in ipairs(items) do
        shown[i] = section.quote and ("`" .. item .. "`") or (item:gsub("[%.;,]+$", ""))
      end
      local line = section.title .. ": " .. table.concat(shown, "; ")
      parts[#parts + 1] = line:find("[%.!?]$") and line or (line .. ".")
    end
  end
  if type(previous) == "string" and previous ~= "" then
    local earlier = clip_words((previous:gsub("^Summary:%s*", "")), budget - used - 1)
    if earlier ~= "" then parts[#parts + 1] = "Earlier: " .. earlier end
  end
  return table.concat(parts, " ")
end

-- ---- registration ----------------------------------------------------------

mnemo.on("should_summarize", function(session, stats, next)
  return M.trigger_met(mnemo.config("summary.trigger"), stats)
end)

mnemo.on("summarize", function(session, events, previous, next)
  return M.compose(events, previous, mnemo.config("summary.max_words") or 200)
end)

return M
