import HearthHTTP

/// What the application decides about a graphql-transport-ws `connection_init`.
public enum ConnectionAuthorization: Sendable {
    /// Acknowledge the connection; its operations run with `context`. `watch`, when given, can
    /// end the connection later (a session that was revoked or expired).
    case accept(context: any Sendable, watch: ConnectionWatch? = nil)
    /// Close the connection with 4403 and `reason`.
    case reject(reason: String)
}

/// Ends an accepted connection from outside it, such as when the session that authenticated it is
/// revoked. `start` is called once the connection is acknowledged, with a function that closes
/// it; it returns the function that stops watching, which is called when the connection closes
/// for any reason (so nothing outlives the connection).
public struct ConnectionWatch: Sendable {
    /// Closes the watched connection with a close code and reason.
    public typealias Close = @Sendable (_ code: WebSocketCloseCode, _ reason: String) -> Void

    let start: @Sendable (_ close: @escaping Close) -> (@Sendable () -> Void)

    /// Creates a watch.
    public init(start: @escaping @Sendable (_ close: @escaping Close) -> (@Sendable () -> Void)) {
        self.start = start
    }
}
