/// Python helpers for tests that speak graphql-transport-ws to the binary as real clients do (Python
/// `websockets`; the server needs `--test-endpoints`). `sys.argv[1]` is the server's base URL.
extension ServerProcess {
    /// GraphQL over HTTP off the event loop (`call`), a metric's value, an authenticated connection
    /// (`connected`), a subscription that returns once the server streams it (`subscribe_to`: its bus
    /// subscription taken, so every change committed afterwards reaches it), the next message, one live
    /// subscription for each of several people (`subscribed`) and a refused one (`refused`). `base` names
/// another server than `sys.argv[1]` (one of several instances, or a load balancer in front of them).
    static let webSocketPeerScript = """
        import asyncio, json, sys, urllib.request
        from websockets.asyncio.client import connect
        BASE = sys.argv[1]
        def post(query, variables, token, base=None):
            request = urllib.request.Request(
                (base or BASE) + "/graphql", data=json.dumps({"query": query, "variables": variables}).encode(),
                headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
            return json.loads(urllib.request.urlopen(request).read())
        async def call(query, variables, token, base=None):
            answer = await asyncio.get_running_loop().run_in_executor(None, post, query, variables, token, base)
            assert "errors" not in answer, answer
            return answer["data"]
        def metric(name, base=None):
            text = urllib.request.urlopen((base or BASE) + "/metrics").read().decode()
            return int(float([line for line in text.splitlines() if line.startswith(name + " ")][0].split()[1]))
        async def connected(token, base=None):
            ws = await connect((base or BASE).replace("http", "ws") + "/graphql", subprotocols=["graphql-transport-ws"])
            await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer " + token}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            return ws
        async def subscribe_to(ws, operation, query, variables, base=None):
            before = metric("hearth_graphql_active_subscriptions", base)
            await ws.send(json.dumps({"type": "subscribe", "id": operation, "payload": {"query": query, "variables": variables}}))
            # A subscribe has no reply: the test endpoint answers once the subscription is live.
            live = await asyncio.get_running_loop().run_in_executor(
                None, lambda: urllib.request.urlopen(f"{base or BASE}/_test/subscriptions/{before + 1}").read().decode())
            assert live == str(before + 1), f"{live} subscriptions live, expected {before + 1}"
        async def message(ws):
            return json.loads(await asyncio.wait_for(ws.recv(), 10))
        async def subscribed(tokens, query, variables):
            # A connection for each of `tokens` (in order), each with the subscription `query`, live.
            sockets = []
            for index, token in enumerate(tokens):
                ws = await connected(token)
                await subscribe_to(ws, str(index), query, variables)
                sockets.append(ws)
            return sockets
        async def refused(token, query, variables):
            # The answer to subscribing to `query` as `token`, which must be an error: "error CODE message".
            ws = await connected(token)
            await ws.send(json.dumps({"type": "subscribe", "id": "refused", "payload": {"query": query, "variables": variables}}))
            reply = await message(ws)
            await ws.close()
            return f"{reply['type']} {reply['payload'][0]['extensions']['code']} {reply['payload'][0]['message']}"

        """
}
