import HearthHTTP
import Synchronization
import TestPython
import Testing

/// The close codes and reasons handlers were told about, as `code reason` lines.
final class CloseLog: Sendable {
    let entries = Mutex<[String]>([])
}

/// Echoes every message; a text message `close:<code>:<reason>` makes the server close instead.
final class EchoHandler: WebSocketHandler {
    let closes: CloseLog?

    init(recordingClosesIn closes: CloseLog? = nil) {
        self.closes = closes
    }

    func webSocket(_ connection: WebSocketConnection, received message: WebSocketMessage) {
        if let text = message.text, text.hasPrefix("close:") {
            let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
            connection.close(code: WebSocketCloseCode(UInt16(parts[1]) ?? 1000), reason: parts.count > 2 ? parts[2] : "")
            return
        }
        WebSocketEchoHandler.echo(message, on: connection)
    }

    func webSocket(_ connection: WebSocketConnection, closedWith code: WebSocketCloseCode, reason: String) {
        closes?.entries.withLock { $0.append("\(code) \(reason)") }
    }
}

extension LiveTests {
@Suite struct WebSocketLiveTests {
    private static func routes(_ router: inout Router) {
        var plain = WebSocketConfiguration()
        plain.compression = nil
        router.webSocket("/plain", configuration: plain) { _, _ in EchoHandler() }
        router.webSocket("/deflate") { _, _ in EchoHandler() }
        var graphQL = WebSocketConfiguration()
        graphQL.subprotocols = ["graphql-transport-ws"]
        router.webSocket("/graphql", configuration: graphQL) { _, _ in EchoHandler() }
        router.get("/graphql") { _, responder in responder.send(.text("http side\n")) }
        router.webSocket("/small", configuration: {
            var small = WebSocketConfiguration()
            small.maxMessageSize = 1000
            small.compression = nil
            return small
        }()) { _, _ in EchoHandler() }
    }

    private static let echoScript = """
        import asyncio, sys
        from websockets.asyncio.client import connect
        async def main(url, compression):
            async with connect(url, compression=compression, max_size=None) as ws:
                print("extensions", ws.response.headers.get("Sec-WebSocket-Extensions", "none"))
                await ws.send("héllo ✓")
                print("text", await ws.recv())
                await ws.send(bytes([0, 1, 255]))
                print("binary", (await ws.recv()).hex())
                await ws.send(["frag", "mented ", "✓"])
                print("fragmented", await ws.recv())
                big = "0123456789" * 7000
                await ws.send(big)
                print("big", await ws.recv() == big)
                pong = await ws.ping(b"abc")
                await pong
                print("pong")
                await ws.close()
                print("closed", ws.close_code)
        asyncio.run(main(sys.argv[1], None if sys.argv[2] == "off" else "deflate"))
        """

    @Test func echoesTextBinaryFragmentedAndLargeMessagesWithoutCompression() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript(Self.echoScript, ["ws://127.0.0.1:\(live.address.port)/plain", "deflate"])
        #expect(lines == [
            "extensions none", "text héllo ✓", "binary 0001ff", "fragmented fragmented ✓", "big True", "pong",
            "closed 1000",
        ])
    }

    @Test func echoesWithPermessageDeflateNegotiated() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript(Self.echoScript, ["ws://127.0.0.1:\(live.address.port)/deflate", "deflate"])
        #expect(lines.first?.hasPrefix("extensions permessage-deflate; server_no_context_takeover; client_no_context_takeover") == true)
        #expect(Array(lines.dropFirst()) == [
            "text héllo ✓", "binary 0001ff", "fragmented fragmented ✓", "big True", "pong", "closed 1000",
        ])
    }

    @Test func echoesWhenTheClientDoesNotOfferCompression() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript(Self.echoScript, ["ws://127.0.0.1:\(live.address.port)/deflate", "off"])
        #expect(lines.first == "extensions none")
        #expect(lines.last == "closed 1000")
    }

    @Test func closesWithTheApplicationsCodeAndReason() throws {
        let closes = CloseLog()
        let live = try LiveServer { router in
            router.webSocket("/echo") { _, _ in EchoHandler(recordingClosesIn: closes) }
        }
        let lines = try TestPython.runScript("""
            import asyncio, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed
            async def main(url):
                async with connect(url) as ws:
                    await ws.send("close:4001:bye now")
                    try:
                        await ws.recv()
                    except ConnectionClosed as error:
                        print("closed", error.rcvd.code, error.rcvd.reason)
            asyncio.run(main(sys.argv[1]))
            """, ["ws://127.0.0.1:\(live.address.port)/echo"])
        #expect(lines == ["closed 4001 bye now"])
        #expect(closes.entries.withLock { $0 } == ["4001 bye now"])
    }

    @Test func refusesAClientOfferingNoSubprotocolWeSpeakAndKeepsTheHTTPRoute() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript("""
            import asyncio, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import InvalidStatus
            async def main(url):
                try:
                    async with connect(url, subprotocols=["mqtt"]):
                        print("connected")
                except InvalidStatus as error:
                    print("status", error.response.status_code)
                async with connect(url, subprotocols=["graphql-transport-ws"]) as ws:
                    print("subprotocol", ws.subprotocol)
            asyncio.run(main(sys.argv[1]))
            """, ["ws://127.0.0.1:\(live.address.port)/graphql"])
        #expect(lines == ["status 400", "subprotocol graphql-transport-ws"])
        let client = try live.client()
        try client.send("GET /graphql HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "http side\n")
    }

    @Test func closesWith1009WhenAMessageExceedsTheLimit() throws {
        let live = try LiveServer(routes: Self.routes)
        let lines = try TestPython.runScript("""
            import asyncio, sys
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed
            async def main(url):
                async with connect(url) as ws:
                    await ws.send("x" * 1000)
                    print("echoed", len(await ws.recv()))
                    await ws.send("x" * 1001)
                    try:
                        await ws.recv()
                    except ConnectionClosed as error:
                        print("closed", error.rcvd.code)
            asyncio.run(main(sys.argv[1]))
            """, ["ws://127.0.0.1:\(live.address.port)/small"])
        #expect(lines == ["echoed 1000", "closed 1009"])
    }

    @Test func answersAPlainRequestToAWebSocketOnlyPathWith426() throws {
        let live = try LiveServer(routes: Self.routes)
        let client = try live.client()
        try client.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 426)
        #expect(response.headers["Upgrade"] == "websocket")
    }
}
}
