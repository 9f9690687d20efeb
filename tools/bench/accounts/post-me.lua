-- wrk script: POST { me { id displayName } } with the access token from HEARTH_TOKEN (tools/bench/accounts).
wrk.method = "POST"
wrk.body = '{"query":"{ me { id displayName } }"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("HEARTH_TOKEN")
