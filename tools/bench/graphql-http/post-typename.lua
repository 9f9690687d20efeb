-- wrk script: POST { __typename } as a GraphQL-over-HTTP request (tools/bench/graphql-http).
wrk.method = "POST"
wrk.body = '{"query":"{ __typename }"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/graphql-response+json"
