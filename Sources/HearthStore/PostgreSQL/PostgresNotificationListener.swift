import CPostgreSQL
import Glibc
import Synchronization

/// One dedicated connection that `LISTEN`s on PostgreSQL channels, so a process learns what
/// other processes sharing the database committed (``Database/notify(channel:payload:)``).
///
/// ``run(_:)`` owns the calling thread (a thread of its own, never an event loop or a task of
/// the cooperative pool): it connects, listens, and hands each notification to its handler in
/// the order PostgreSQL delivers them (commit order). When the connection is lost it waits by
/// its ``ReconnectBackoff`` and connects again; notifications sent meanwhile are lost, so after
/// every (re)connect the handler is told ``Signal/connected`` and reads what it may have
/// missed (the change log after its cursor). ``stop()`` ends it within a quarter of a second.
public final class PostgresNotificationListener: Sendable {
    /// What the listener tells its handler.
    public enum Signal: Sendable, Equatable {
        /// Listening (again): anything sent while it was not may be missed.
        case connected
        /// A notification on `channel` with its `payload`.
        case notification(channel: String, payload: String)
        /// Connecting or listening failed with `message`; it tries again after `retryAfter`.
        case failed(message: String, retryAfter: Duration)
    }

    private let url: String
    private let password: String?
    /// The channels listened on.
    public let channels: [String]
    private let backoff: ReconnectBackoff
    private let isStopped = Atomic(false)

    /// A listener on `channels` of the database at `url` (a libpq connection string or
    /// `postgres://` URL; `password` overrides one in it, as the store's password file does).
    public init(url: String, password: String?, channels: [String], backoff: ReconnectBackoff = ReconnectBackoff()) {
        precondition(!channels.isEmpty, "a listener listens on at least one channel")
        self.url = url
        self.password = password
        self.channels = channels
        self.backoff = backoff
    }

    /// Asks ``run(_:)`` to return.
    public func stop() {
        isStopped.store(true, ordering: .releasing)
    }

    private var stopped: Bool { isStopped.load(ordering: .acquiring) }

    /// Listens on the calling thread until ``stop()``, calling `handle` with every signal.
    public func run(_ handle: (Signal) -> Void) {
        var backoff = backoff
        while !stopped {
            do {
                let connection = try connect()
                defer { PQfinish(connection) }
                backoff.succeeded()
                handle(.connected)
                try listen(on: connection, handle)
            } catch {
                let wait = backoff.failed()
                handle(.failed(message: error.message, retryAfter: wait))
                pause(for: wait)
            }
        }
    }

    /// A connection listening on ``channels``.
    private func connect() throws(StoreError) -> OpaquePointer {
        var keywords = ["dbname", "fallback_application_name"]
        var values = [url, "hearth-listener"]
        if let password {
            keywords.append("password")
            values.append(password)
        }
        let connection = withCStringArray(keywords) { keywords in withCStringArray(values) { values in PQconnectdbParams(keywords, values, 1) } }
        guard let connection else { throw StoreError(extendedCode: .cantOpen, message: "cannot allocate a PostgreSQL connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            defer { PQfinish(connection) }
            throw Self.error(connection, "cannot connect to PostgreSQL")
        }
        for channel in channels {
            // A quoted identifier: the channel names are the server's constants, not input.
            let result = PQexec(connection, "LISTEN \"\(channel)\"")
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                defer { PQfinish(connection) }
                throw Self.error(connection, "cannot LISTEN on \(channel)")
            }
        }
        return connection
    }

    /// Waits for notifications and hands them over until the connection fails or ``stop()``.
    private func listen(on connection: OpaquePointer, _ handle: (Signal) -> Void) throws(StoreError) {
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        while !stopped {
            let ready = poll(&descriptor, 1, 250)
            guard ready >= 0 || errno == EINTR else { throw StoreError(extendedCode: .ioError, message: "poll failed: errno \(errno)") }
            guard ready > 0 else { continue }
            guard PQconsumeInput(connection) == 1 else { throw Self.error(connection, "lost the listening connection") }
            while let notification = PQnotifies(connection) {
                let channel = String(cString: notification.pointee.relname)
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                handle(.notification(channel: channel, payload: payload))
            }
            guard PQstatus(connection) == CONNECTION_OK else { throw Self.error(connection, "lost the listening connection") }
        }
    }

    /// Sleeps `duration` in slices, returning early once stopped.
    private func pause(for duration: Duration) {
        var left = duration
        while left > .zero, !stopped {
            let slice = min(left, .milliseconds(250))
            let (seconds, attoseconds) = slice.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            nanosleep(&request, nil)
            left -= slice
        }
    }

    private static func error(_ connection: OpaquePointer, _ context: String) -> StoreError {
        let message = PostgresConnection.trimmed(String(cString: PQerrorMessage(connection)))
        return StoreError(extendedCode: .cantOpen, message: "\(context): \(message)")
    }
}
