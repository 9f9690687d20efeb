import Foundation
import GraphQL
import HearthAPI
import HearthHTTP
import HearthServices
import Support
import Synchronization
import TestPython
import TestFixtures
import Testing

/// `GraphQLWebSocketEndpoint`'s delivery filter on a live server with real clients: two connections share one
/// `serverEvents` subscription, and the filter, given each connection's own context, keeps the shared responses
/// from one of them. The script publishes through a test route and waits for what it can observe.
@Suite struct DeliveryFilterTests {
    private static let sdl: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8)) ?? ""
    }()

    /// Runs the blocking script on a thread of its own: the in-process server needs the cooperative pool
    /// (operations, the shared subscription's task) while the script runs, and the pool has one thread per core.
    /// Other suites of the same run may hold those threads for seconds (blocking oracles), so every wait
    /// below is a generous hang guard (two minutes), never a measure of speed.
    private static func runScript(_ script: String, _ arguments: [String]) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            DetachedThread.start(name: "test-python") {
                continuation.resume(with: Result { try TestPython.runScript(script, arguments) })
            }
        }
    }

    @Test func aFilterKeepsSharedResponsesFromTheConnectionsItVetoes() async throws {
        try await HouseholdsHarness.with { harness in
            let bus = InProcessEventBus()
            let service = try HearthSchema.service(
                sdl: Self.sdl, serverInfo: ServerInfo(version: "test", startedAt: WallClock.Instant(seconds: 0)), events: bus,
                accounts: harness.accounts.service, households: harness.service, chores: harness.chores, limits: GraphQLLimits(), logger: .disabled)
            let metrics = RealtimeMetrics()
            let endpoint = GraphQLWebSocketEndpoint(
                service: service, configuration: RealtimeConfiguration(), metrics: metrics,
                makeContext: { request in request.headers["X-Device"] ?? "" },
                filter: { context, _ in context as? String != "muted" })
            var router = Router()
            endpoint.register(in: &router)
            let published = Mutex<Int64>(0)
            router.on(.post, "/publish", async: { _ in
                let sequence = published.withLock { sequence in
                    sequence += 1
                    return sequence
                }
                bus.publish([Event(
                    sequence: sequence, topic: .server, kind: .serverHeartbeat,
                    payload: try EventPayload(ServerStatus(startedAt: Date(timeIntervalSince1970: 0), heartbeat: Int(sequence))),
                    committedAt: Date(timeIntervalSince1970: 1))])
                return .text("published")
            })
            // Answers once both subscriptions are live: a subscribe has no reply to wait for.
            router.on(.get, "/active", async: { _ in
                let active = await metrics.waitForActiveSubscriptions(2, timeout: .seconds(120))
                return .text("\(active) \(endpoint.sharedSubscriptionCount)")
            })
            var configuration = HTTPServerConfiguration()
            configuration.port = 0
            configuration.eventLoopCount = 2
            let server = HTTPServer(configuration: configuration, router: router)
            let address = try server.start()
            defer {
                server.shutdown(gracePeriod: .zero)
                server.waitUntilStopped()
            }
            let lines = try await Self.runScript("""
                import asyncio, json, sys, urllib.request
                from websockets.asyncio.client import connect
                EVENTS = {"query": "subscription { serverEvents { heartbeat } }"}
                def request(base, path, method="GET"):
                    data = b"" if method == "POST" else None
                    return urllib.request.urlopen(urllib.request.Request(base + path, data=data, method=method)).read().decode()
                async def opened(url, device):
                    # HTTP requests run on threads (asyncio.to_thread) so this loop keeps answering the
                    # server's pings while it waits; its own pings are off, the server's suffice.
                    ws = await connect(url, subprotocols=["graphql-transport-ws"], additional_headers={"X-Device": device},
                                       ping_interval=None)
                    await ws.send(json.dumps({"type": "connection_init"}))
                    await ws.recv()
                    return ws
                async def main(base):
                    url = base.replace("http", "ws") + "/graphql"
                    phone, muted = await opened(url, "phone"), await opened(url, "muted")
                    await muted.send(json.dumps({"type": "subscribe", "id": "m", "payload": EVENTS}))
                    await phone.send(json.dumps({"type": "subscribe", "id": "p", "payload": EVENTS}))
                    print("active and shared", await asyncio.to_thread(request, base, "/active"))
                    for _ in range(2):
                        await asyncio.to_thread(request, base, "/publish", "POST")
                        message = json.loads(await asyncio.wait_for(phone.recv(), 120))
                        print("phone", message["type"], message["id"], message["payload"]["data"]["serverEvents"]["heartbeat"])
                    # A vetoed response would reach `muted` before the answers to what it sends now.
                    await muted.send(json.dumps({"type": "complete", "id": "m"}))
                    await muted.send(json.dumps({"type": "subscribe", "id": "q", "payload": {"query": "{ serverInfo { version } }"}}))
                    while True:
                        message = json.loads(await asyncio.wait_for(muted.recv(), 120))
                        print("muted", message["type"], message["id"])
                        if message["type"] == "complete":
                            break
                    await phone.close()
                    await muted.close()
                asyncio.run(main(sys.argv[1]))
                """, ["http://127.0.0.1:\(address.port)"])
            #expect(lines == [
                "active and shared 2 1",
                "phone next p 1",
                "phone next p 2",
                "muted next q",
                "muted complete q",
            ])
        }
    }
}
