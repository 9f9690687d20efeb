/// The server side of the opening handshake (RFC 6455 §4.2): checks an upgrade request and either builds the
/// 101 response's headers or the refusal to send instead. Pure logic, testable without a socket.
enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// An accepted upgrade.
    struct Acceptance {
        /// The headers of the 101 response (`Upgrade`, `Sec-WebSocket-Accept`, and the negotiated
        /// `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions`); the server adds `Connection: Upgrade`.
        var headers: HTTPHeaders
        /// The selected sub-protocol.
        var subprotocol: String?
        /// The agreed permessage-deflate parameters.
        var deflate: PerMessageDeflateParameters?
    }

    /// What to do with an upgrade request.
    enum Outcome {
        case accept(Acceptance)
        case refuse(HTTPResponse)
    }

    /// Whether the request asks to switch to WebSocket at all (`Upgrade` lists `websocket`); requests that do
    /// not are ordinary HTTP requests for the same path.
    static func isUpgradeRequest(_ head: HTTPRequestHead) -> Bool {
        head.headers.values(name: "Upgrade").contains { listContains($0, "websocket") }
    }

    /// Checks `head` against RFC 6455 §4.2.1 and `configuration`, then negotiates sub-protocol and extensions.
    static func evaluate(_ head: HTTPRequestHead, configuration: WebSocketConfiguration) -> Outcome {
        guard head.method == .get else { return .refuse(.text("WebSocket upgrades use GET\n", status: .methodNotAllowed)) }
        guard head.version.major == 1 && head.version.minor >= 1 else {
            return .refuse(.text("WebSocket upgrades need HTTP/1.1\n", status: .badRequest))
        }
        guard isUpgradeRequest(head) else { return .refuse(upgradeRequired()) }
        guard head.headers.values(name: "Connection").contains(where: { listContains($0, "upgrade") }) else {
            return .refuse(.text("the Connection header must list upgrade\n", status: .badRequest))
        }
        guard head.headers.values(name: "Sec-WebSocket-Version").map(trimmed) == ["13"] else {
            var response = HTTPResponse.text("unsupported WebSocket version; this server speaks 13\n", status: HTTPStatus(code: 426))
            response.headers.add(name: "Sec-WebSocket-Version", value: "13")
            return .refuse(response)
        }
        let keys = head.headers.values(name: "Sec-WebSocket-Key")
        guard keys.count == 1, let key = keys.first.map(trimmed), Base64.decode(key[...])?.count == 16 else {
            return .refuse(.text("Sec-WebSocket-Key must be 16 bytes in base64\n", status: .badRequest))
        }
        if let allowed = configuration.allowedOrigins, let origin = head.headers.first(name: "Origin") {
            let origin = trimmed(origin)
            guard allowed.contains(where: { HTTPHeaders.namesEqual($0, origin) }) else {
                return .refuse(.text("origin not allowed\n", status: .forbidden))
            }
        }
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Sec-WebSocket-Accept": acceptValue(forKey: key)]
        var subprotocol: String?
        if !configuration.subprotocols.isEmpty {
            let offered = head.headers.values(name: "Sec-WebSocket-Protocol").flatMap(listElements)
            guard let chosen = configuration.subprotocols.first(where: offered.contains) else {
                let spoken = configuration.subprotocols.joined(separator: ", ")
                return .refuse(.text("no supported WebSocket sub-protocol offered; this endpoint speaks: \(spoken)\n", status: .badRequest))
            }
            subprotocol = chosen
            headers.add(name: "Sec-WebSocket-Protocol", value: chosen)
        }
        var deflate: PerMessageDeflateParameters?
        if let compression = configuration.compression {
            deflate = PerMessageDeflateNegotiation.negotiate(
                offers: head.headers.values(name: "Sec-WebSocket-Extensions"), configuration: compression)
            if let deflate { headers.add(name: "Sec-WebSocket-Extensions", value: deflate.responseValue) }
        }
        return .accept(Acceptance(headers: headers, subprotocol: subprotocol, deflate: deflate))
    }

    /// `base64(SHA-1(key + GUID))`.
    static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// 426 with `Upgrade: websocket`: the answer to a plain request for a WebSocket-only path.
    static func upgradeRequired() -> HTTPResponse {
        var response = HTTPResponse.text("this endpoint speaks WebSocket only\n", status: HTTPStatus(code: 426))
        response.headers.add(name: "Upgrade", value: "websocket")
        return response
    }

    private static func listElements(_ value: String) -> [String] {
        value.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private static func listContains(_ value: String, _ token: String) -> Bool {
        listElements(value).contains { HTTPHeaders.namesEqual($0, token) }
    }

    private static func trimmed(_ value: String) -> String {
        String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
