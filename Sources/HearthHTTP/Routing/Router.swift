/// Handles a request by eventually calling `responder.send(_:)` exactly once, inline or later from any thread.
/// Runs on an event-loop thread: do CPU work inline if it is short, hand anything that waits to other threads.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// Handles a request in its own `Task`; a thrown error becomes a 500 response (and an observer event).
public typealias AsyncHTTPHandler = @Sendable (HTTPRequest) async throws -> HTTPResponse

/// Maps method and path to handlers. Paths match exactly, segment by segment; a segment written `:name`
/// matches any one non-empty segment and is passed in `HTTPRequest.parameters`. Exact paths win over
/// parameterised ones, which are tried in registration order. An unknown path is answered with 404, a known
/// path with another method with 405 and `Allow`; `HEAD` is served by the `GET` handler (the body is not sent).
///
/// A path may also be a WebSocket endpoint (`webSocket(_:configuration:handler:)`), alongside ordinary
/// handlers for the same path: requests carrying `Upgrade: websocket` go to the endpoint, the others to the
/// method handlers (or get 426 Upgrade Required when the path has none).
public struct Router: Sendable {
    /// One pattern and its handler per method.
    struct Route: Sendable {
        let pattern: String
        let segments: [Segment]
        var handlers: [HTTPMethod: HTTPHandler] = [:]
        var webSocket: WebSocketEndpoint?

        /// The methods this route answers, for `Allow`, sorted (with `HEAD` when `GET` is present).
        var allowedMethods: String {
            var methods = Set(handlers.keys.map(\.rawValue))
            if webSocket != nil { methods.insert("GET") }
            if methods.contains("GET") { methods.insert("HEAD") }
            return methods.sorted().joined(separator: ", ")
        }

        func handler(for method: HTTPMethod) -> HTTPHandler? {
            if let handler = handlers[method] ?? (method == .head ? handlers[.get] : nil) { return handler }
            guard webSocket != nil, method == .get || method == .head else { return nil }
            return { _, responder in responder.send(WebSocketHandshake.upgradeRequired()) }
        }
    }

    enum Segment: Sendable, Equatable {
        case literal(Substring)
        case parameter(String)
    }

    /// What routing decided for a request.
    enum Resolution {
        case matched(pattern: String, handler: HTTPHandler, parameters: [String: String])
        case webSocket(pattern: String, endpoint: WebSocketEndpoint, parameters: [String: String])
        case notFound
        case methodNotAllowed(allow: String)
    }

    private var exactRoutes: [Substring: Route] = [:]
    private var parameterRoutes: [Route] = []

    /// An empty router: every request gets 404.
    public init() {}

    /// Routes `method` requests for `pattern` to `handler`, replacing an earlier handler for the same pair.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler) {
        updateRoute(pattern) { $0.handlers[method] = handler }
    }

    /// Makes `pattern` a WebSocket endpoint: `GET` requests with `Upgrade: websocket` are checked and
    /// negotiated per `configuration` (refusals get 400, 403 or 426 before any upgrade), answered with 101,
    /// and the connection is handed to `handler` on its event-loop thread. Other requests for the path keep
    /// going to its method handlers.
    ///
    /// ```swift
    /// var configuration = WebSocketConfiguration()
    /// configuration.subprotocols = ["graphql-transport-ws"]
    /// router.webSocket("/graphql", configuration: configuration) { request, connection in
    ///     MyHandler(connection: connection)
    /// }
    /// ```
    public mutating func webSocket(
        _ pattern: String, configuration: WebSocketConfiguration = WebSocketConfiguration(),
        handler: @escaping WebSocketUpgradeHandler
    ) {
        updateRoute(pattern) { $0.webSocket = WebSocketEndpoint(configuration: configuration, handler: handler) }
    }

    private mutating func updateRoute(_ pattern: String, _ update: (inout Route) -> Void) {
        let segments = Router.segments(of: pattern)
        let isParameterised = segments.contains { if case .parameter = $0 { true } else { false } }
        if !isParameterised {
            update(&exactRoutes[pattern[...], default: Route(pattern: pattern, segments: segments)])
        } else if let index = parameterRoutes.firstIndex(where: { $0.pattern == pattern }) {
            update(&parameterRoutes[index])
        } else {
            var route = Route(pattern: pattern, segments: segments)
            update(&route)
            parameterRoutes.append(route)
        }
    }

    /// Routes `method` requests for `pattern` to an async handler, run in one `Task` per request.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, async handler: @escaping AsyncHTTPHandler) {
        on(method, pattern) { request, responder in
            Task {
                do {
                    responder.send(try await handler(request))
                } catch {
                    responder.fail(error, request: request)
                }
            }
        }
    }

    /// Routes `GET` (and so `HEAD`) requests for `pattern` to `handler`.
    public mutating func get(_ pattern: String, handler: @escaping HTTPHandler) {
        on(.get, pattern, handler: handler)
    }

    /// Routes `POST` requests for `pattern` to `handler`.
    public mutating func post(_ pattern: String, handler: @escaping HTTPHandler) {
        on(.post, pattern, handler: handler)
    }

    /// Finds the handler for a request.
    func resolve(method: HTTPMethod, path: Substring, isWebSocketUpgrade: Bool = false) -> Resolution {
        if let route = exactRoutes[path] {
            if isWebSocketUpgrade, let endpoint = route.webSocket {
                return .webSocket(pattern: route.pattern, endpoint: endpoint, parameters: [:])
            }
            guard let handler = route.handler(for: method) else { return .methodNotAllowed(allow: route.allowedMethods) }
            return .matched(pattern: route.pattern, handler: handler, parameters: [:])
        }
        guard !parameterRoutes.isEmpty else { return .notFound }
        let requestSegments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var allowed: String?
        for route in parameterRoutes {
            guard let parameters = Router.match(route.segments, requestSegments) else { continue }
            if isWebSocketUpgrade, let endpoint = route.webSocket {
                return .webSocket(pattern: route.pattern, endpoint: endpoint, parameters: parameters)
            }
            guard let handler = route.handler(for: method) else {
                allowed = allowed ?? route.allowedMethods
                continue
            }
            return .matched(pattern: route.pattern, handler: handler, parameters: parameters)
        }
        return allowed.map { .methodNotAllowed(allow: $0) } ?? .notFound
    }

    private static func match(_ pattern: [Segment], _ path: ArraySlice<Substring>) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, actual) in zip(pattern, path) {
            switch segment {
            case .literal(let literal):
                guard literal == actual else { return nil }
            case .parameter(let name):
                guard !actual.isEmpty else { return nil }
                parameters[name] = String(actual)
            }
        }
        return parameters
    }

    private static func segments(of pattern: String) -> [Segment] {
        precondition(pattern.hasPrefix("/"), "route patterns start with /: \(pattern)")
        return pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            segment.hasPrefix(":") ? .parameter(String(segment.dropFirst())) : .literal(segment)
        }
    }
}
