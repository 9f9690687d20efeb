/// One of the server's event loops, as a place to run work next to the WebSocket connections it owns
/// (`WebSocketConnection.eventLoop`). Fanning an event out to thousands of connections as one job per loop
/// costs one hand-over (and at most one wake-up) per loop instead of one per connection, and the job's sends
/// act at once, without queueing.
public struct WebSocketEventLoop: Hashable, Sendable {
    let loop: EventLoop

    /// Runs `work` on the loop's thread: at once when called there, otherwise after the work already handed to
    /// the loop, in order. Calls on the loop's connections inside `work` act at once. Keep it short and never
    /// let it wait: the loop serves nothing else meanwhile.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }

    public static func == (lhs: WebSocketEventLoop, rhs: WebSocketEventLoop) -> Bool {
        lhs.loop === rhs.loop
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(loop))
    }
}
