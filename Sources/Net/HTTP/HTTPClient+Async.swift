import Support

extension HTTPClient {
    /// ``get(_:headers:)`` on a thread of its own, suspending the caller instead of blocking
    /// it: for async code such as resolvers, whose threads (and event loops) must not wait.
    /// - Throws: `NetworkError` naming the URL.
    public func get(_ url: HTTPURL, headers: [(String, String)] = []) async throws(NetworkError) -> HTTPResponse {
        try await Self.onWorkerThread { () throws(NetworkError) in try get(url, headers: headers) }
    }

    /// ``post(_:headers:body:)`` on a thread of its own, suspending the caller.
    /// - Throws: `NetworkError` naming the URL.
    public func post(_ url: HTTPURL, headers: [(String, String)] = [], body: [UInt8]) async throws(NetworkError) -> HTTPResponse {
        try await Self.onWorkerThread { () throws(NetworkError) in try post(url, headers: headers, body: body) }
    }

    private static func onWorkerThread(
        _ exchange: @escaping @Sendable () throws(NetworkError) -> HTTPResponse
    ) async throws(NetworkError) -> HTTPResponse {
        try await DetachedThread.run(name: "hearth-http") { Result { () throws(NetworkError) in try exchange() } }.get()
    }
}
