-- The benchmark event of BENCH.md, shared by the wrk scripts: one event whose
-- content.text is 480 ASCII characters, about 500 bytes as sent. prefill.py
-- builds the same text so reads return what appends would have stored.
local payload = {}

local SENTENCE = "The quick brown fox jumps over the lazy dog while the agent keeps notes. "
local TEXT_CHARS = 480

function payload.text()
  local repeated = string.rep(SENTENCE, math.ceil(TEXT_CHARS / #SENTENCE))
  return repeated:sub(1, TEXT_CHARS)
end

function payload.event_json()
  return '{"author":"user","role":"user","content":{"text":"' .. payload.text() .. '"}}'
end

return payload
