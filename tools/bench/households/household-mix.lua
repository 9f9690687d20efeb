-- wrk script for tools/bench/households: cycles through the requests in the file given as the
-- script's argument (`wrk ... -s household-mix.lua URL -- FILE [ENCODING]`), one per line as
-- "<access token>\t<JSON body>", each thread starting at a different line. "{n}" in a body
-- becomes a per-thread counter, so a write changes something every time. Counts the responses
-- that carry GraphQL errors (they come with status 200) and prints "graphql errors: N".
-- With ENCODING (`gzip`, as a phone's HTTP client sends), requests carry it as Accept-Encoding;
-- compressed bodies are not read (wrk then neither keeps nor scans them), so the caller counts
-- GraphQL errors from the server's own metrics instead.
local threads = {}

function setup(thread)
  thread:set("offset", #threads * 7)
  table.insert(threads, thread)
end

function init(args)
  entries = {}
  for line in io.lines(args[1]) do
    local tab = string.find(line, "\t", 1, true)
    table.insert(entries, { token = string.sub(line, 1, tab - 1), body = string.sub(line, tab + 1) })
  end
  position = offset % #entries
  sent = 0
  errors = 0
  encoding = args[2]
  if encoding then response = nil end
end

function request()
  local entry = entries[position + 1]
  position = (position + 1) % #entries
  sent = sent + 1
  local body = string.gsub(entry.body, "{n}", tostring(sent))
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/graphql-response+json",
    ["Accept-Encoding"] = encoding,
    ["Authorization"] = "Bearer " .. entry.token,
  }, body)
end

function response(status, headers, body)
  if string.find(body, '"errors"', 1, true) then errors = errors + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("errors") end
  io.write("graphql errors: " .. total .. "\n")
end
