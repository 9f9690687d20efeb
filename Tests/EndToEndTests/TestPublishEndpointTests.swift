import Foundation
import TestPython
import Testing

/// `POST /_test/publish`, the `--test-endpoints` route the WebSocket fan-out benchmark triggers: it answers 201
/// after the commit and its event reaches a live `serverEvents` subscriber through the change log and the bus.
/// Heartbeats are set to an hour so the only events are the published ones.
@Suite struct TestPublishEndpointTests {
    @Test func aPublishedEventReachesALiveSubscriberWithTheSequenceTheRouteAnswered() throws {
        let server = try ServerProcess(["--test-endpoints", "--heartbeat-interval", "1h"])
        defer { server.remove() }
        let lines = try TestPython.runScript("""
            import asyncio, json, sys, urllib.request
            from websockets.asyncio.client import connect
            def publish(base):
                response = urllib.request.urlopen(urllib.request.Request(base + "/_test/publish", data=b"", method="POST"))
                return response.status, response.read().decode()
            async def main(base):
                url = base.replace("http", "ws") + "/graphql"
                async with connect(url, subprotocols=["graphql-transport-ws"]) as ws:
                    await ws.send(json.dumps({"type": "connection_init"}))
                    print("init", json.loads(await ws.recv())["type"])
                    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {
                        "query": "subscription { serverEvents { sequence kind heartbeat missedEvents } }"}}))
                    # The subscribe message has no reply: this test route answers once it is live.
                    print("live", urllib.request.urlopen(base + "/_test/subscriptions/1").read().decode())
                    for _ in range(2):
                        status, body = publish(base)
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        event = message["payload"]["data"]["serverEvents"]
                        print("status", status, "type", message["type"], "same sequence", body == f"published {event['sequence']}",
                              "kind", event["kind"], "heartbeat", event["heartbeat"], "missed", event["missedEvents"])
            asyncio.run(main(sys.argv[1]))
            """, ["http://127.0.0.1:\(server.port)"])
        #expect(lines == [
            "init connection_ack",
            "live 1",
            "status 201 type next same sequence True kind HEARTBEAT heartbeat 1 missed False",
            "status 201 type next same sequence True kind HEARTBEAT heartbeat 2 missed False",
        ])
    }

    @Test func theRouteIsNotServedWithoutTestEndpoints() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let client = try server.connect()
        try client.send("POST /_test/publish HTTP/1.1\r\nHost: e2e\r\nContent-Length: 0\r\n\r\n")
        #expect(try client.readResponse().status == 404)
        client.close()
    }
}
