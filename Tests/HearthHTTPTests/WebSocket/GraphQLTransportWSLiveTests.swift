import HearthHTTP
import Support
import TestPython
import Testing

/// A graphql-transport-ws endpoint over a fake operation source: every operation yields three results
/// `{"data":{"count":n}}` and completes, except queries mentioning `forever`, which yield one and then run until
/// the client completes them. `connection_init` payloads with `"token":"bad"` are rejected.
final class FakeGraphQLHandler: WebSocketHandler {
    private var machine: GraphQLTransportWSMachine

    init(now: UInt64) {
        var configuration = GraphQLTransportWSMachine.Configuration()
        configuration.connectionInitTimeout = .milliseconds(500)
        machine = GraphQLTransportWSMachine(configuration: configuration, now: now)
    }

    func webSocket(_ connection: WebSocketConnection, received message: WebSocketMessage) {
        perform(machine.receive(message), on: connection)
    }

    func webSocket(_ connection: WebSocketConnection, tick now: UInt64) {
        perform(machine.tick(now: now), on: connection)
    }

    func webSocket(_ connection: WebSocketConnection, closedWith code: WebSocketCloseCode, reason: String) {
        _ = machine.connectionClosed()
    }

    private func perform(_ actions: [GraphQLTransportWSMachine.Action], on connection: WebSocketConnection) {
        for action in actions {
            switch action {
            case .send(let message):
                connection.send(.text(utf8: message.encoded()))
            case .authorize(let payload):
                let rejected = payload.map { String(decoding: $0, as: UTF8.self).contains("\"bad\"") } ?? false
                perform(rejected ? machine.reject() : machine.acknowledge(), on: connection)
            case .startOperation(let id, let payload):
                let forever = String(decoding: payload, as: UTF8.self).contains("forever")
                for count in 1...(forever ? 1 : 3) {
                    perform(machine.next(id: id, payload: Array("{\"data\":{\"count\":\(count)}}".utf8)), on: connection)
                }
                if !forever { perform(machine.complete(id: id), on: connection) }
            case .stopOperation:
                break
            case .close(let code, let reason):
                connection.close(code: code, reason: reason)
            }
        }
    }
}

extension LiveTests {
@Suite struct GraphQLTransportWSLiveTests {
    private static func routes(_ router: inout Router) {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = [GraphQLTransportWSMachine.subprotocol]
        router.webSocket("/graphql", configuration: configuration) { _, _ in
            FakeGraphQLHandler(now: MonotonicClock.nanoseconds())
        }
    }

    @Test func runsTheProtocolHappyPathWithARealClient() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript("""
            import asyncio, json, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed
            async def main(url):
                async with connect(url, subprotocols=["graphql-transport-ws"]) as ws:
                    await ws.send(json.dumps({"type": "connection_init", "payload": {"token": "good"}}))
                    print(await ws.recv())
                    await ws.send(json.dumps({"type": "ping"}))
                    print(await ws.recv())
                    await ws.send(json.dumps({"type": "subscribe", "id": "a", "payload": {"query": "subscription { count }"}}))
                    for _ in range(4):
                        print(await ws.recv())
                    await ws.send(json.dumps({"type": "subscribe", "id": "b", "payload": {"query": "subscription { forever }"}}))
                    print(await ws.recv())
                    await ws.send(json.dumps({"type": "complete", "id": "b"}))
                    await ws.send(json.dumps({"type": "ping"}))
                    print(await ws.recv())
                    await ws.send(json.dumps({"type": "subscribe", "id": "c", "payload": {"query": "subscription { forever }"}}))
                    print(await ws.recv())
                    await ws.send(json.dumps({"type": "subscribe", "id": "c", "payload": {"query": "subscription { forever }"}}))
                    try:
                        await ws.recv()
                    except ConnectionClosed as error:
                        print("closed", error.rcvd.code, error.rcvd.reason)
            asyncio.run(main(sys.argv[1]))
            """, ["ws://127.0.0.1:\(live.address.port)/graphql"])
        #expect(lines == [
            #"{"type":"connection_ack"}"#, #"{"type":"pong"}"#,
            #"{"type":"next","id":"a","payload":{"data":{"count":1}}}"#,
            #"{"type":"next","id":"a","payload":{"data":{"count":2}}}"#,
            #"{"type":"next","id":"a","payload":{"data":{"count":3}}}"#,
            #"{"type":"complete","id":"a"}"#,
            #"{"type":"next","id":"b","payload":{"data":{"count":1}}}"#,
            #"{"type":"pong"}"#,
            #"{"type":"next","id":"c","payload":{"data":{"count":1}}}"#,
            "closed 4409 Subscriber for c already exists",
        ])
    }

    @Test func closesWith4403And4408AndTheSubscribeBeforeAckCode() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript("""
            import asyncio, json, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed
            async def expect_close(url, messages):
                async with connect(url, subprotocols=["graphql-transport-ws"]) as ws:
                    for message in messages:
                        await ws.send(json.dumps(message))
                    try:
                        while True:
                            await ws.recv()
                    except ConnectionClosed as error:
                        print(error.rcvd.code, error.rcvd.reason)
            async def main(url):
                await expect_close(url, [{"type": "connection_init", "payload": {"token": "bad"}}])
                await expect_close(url, [])
                await expect_close(url, [{"type": "subscribe", "id": "1", "payload": {"query": "{ a }"}}])
                await expect_close(url, [{"type": "connection_init"}, {"type": "connection_init"}])
            asyncio.run(main(sys.argv[1]))
            """, ["ws://127.0.0.1:\(live.address.port)/graphql"])
        #expect(lines == [
            "4403 Forbidden", "4408 Connection initialisation timeout", "4401 Unauthorized",
            "4429 Too many initialisation requests",
        ])
    }
}
}
