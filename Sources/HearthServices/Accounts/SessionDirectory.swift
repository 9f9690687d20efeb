import FoundationEssentials
import Synchronization

/// What authenticating an access token needs to know about its session, kept in memory so
/// that a request with a valid token costs no database read.
///
/// Every change to a session (rotation, revocation) goes through ``AccountService``, which
/// updates this directory after the change commits. With one process on the database the
/// directory is never stale. With several (PostgreSQL), each keeps its own directory: a
/// revocation is also sent to the others on ``endsChannel`` in its transaction, and each
/// marks those sessions revoked and tells their observers (``endedElsewhere(_:)``) as the
/// notification arrives, a moment after the commit; after its listening connection was lost
/// an instance forgets every entry (``forgetAll()``), since it may have missed some. A rotation
/// elsewhere needs no message: an access token of a newer generation than the entry makes
/// ``AccountService`` read the session again.
///
/// Parts of the server that hold a session open (WebSocket connections) register for its
/// end with ``observeEnd(of:_:)`` and are told when it is revoked.
public final class SessionDirectory: Sendable {
    /// The cached facts about one session.
    public struct Entry: Sendable, Hashable {
        /// The account signed in.
        public var userID: String
        /// The generation access tokens must carry.
        public var generation: Int64
        /// When the session stops authenticating (the earlier of its refresh expiry and its
        /// absolute end).
        public var expiresAt: Date
        /// Whether it was revoked.
        public var isRevoked: Bool
        /// When the session signed in.
        public var signedInAt: Date
    }

    /// Why a session ended, as told to observers.
    public enum End: Sendable, Equatable {
        /// Signed out, revoked by its user, ended by a password reset or reuse detection.
        case revoked
        /// Reached its end of life.
        case expired
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var observers: [String: [UInt64: @Sendable (End) -> Void]] = [:]
        var nextObserver: UInt64 = 0
        /// How many changes (a commit's ``store(_:for:)``, an ``ended(_:_:)``) the directory was
        /// told of: what a ``mark()`` records.
        var changes: UInt64 = 0

        /// Puts `entry` in, starting afresh when the directory is full (entries reload on demand).
        mutating func insert(_ entry: Entry, for id: String, capacity: Int) {
            if entries.count >= capacity, entries[id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[id] = entry
        }
    }

    /// The most sessions cached; beyond it the cache starts afresh (entries reload on demand).
    public let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty directory.
    public init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    /// The cached entry of session `id`, if any.
    public func entry(_ id: String) -> Entry? {
        state.withLock { $0.entries[id] }
    }

    /// Caches what a commit made of session `id` (a new session, a rotation): called after the
    /// commit, in commit order.
    public func store(_ entry: Entry, for id: String) {
        state.withLock { state in
            state.changes &+= 1
            state.insert(entry, for: id, capacity: capacity)
        }
    }

    /// The directory's count of changes, taken before reading a session from the database to
    /// ``fill(_:for:readAfter:)`` the directory with it.
    public func mark() -> UInt64 {
        state.withLock { $0.changes }
    }

    /// Caches `entry`, read from the database after `mark` was taken, unless the directory
    /// learned of a change since: a revocation (or rotation) that committed after the read
    /// began, told to a directory that did not hold the session yet, would otherwise be
    /// overwritten by the older read, and a revoked session would authenticate again. Skipping
    /// costs one more read, on the next lookup.
    public func fill(_ entry: Entry, for id: String, readAfter mark: UInt64) {
        state.withLock { state in
            guard state.changes == mark else { return }
            state.insert(entry, for: id, capacity: capacity)
        }
    }

    /// The channel on which a revocation is sent to the other instances sharing the database
    /// (payload: the revoked sessions' ids, comma-separated, at most ``endsPerNotification``).
    public static let endsChannel = "hearth_session_ends"

    /// The most session ids in one notification, well inside PostgreSQL's 8000-byte payloads.
    static let endsPerNotification = 100

    /// Records that sessions another instance revoked ended (told by its notification on
    /// ``endsChannel``) and tells their observers here.
    public func endedElsewhere(_ ids: [String]) {
        ended(ids, .revoked)
    }

    /// Drops every cached entry (observers stay): entries reload on demand, so an instance
    /// that may have missed revocations elsewhere reads them from the database.
    public func forgetAll() {
        state.withLock { state in
            state.changes &+= 1
            state.entries.removeAll()
        }
    }

    /// Records that sessions ended and tells their observers.
    func ended(_ ids: [String], _ end: End) {
        let observers = state.withLock { state -> [@Sendable (End) -> Void] in
            state.changes &+= 1
            var observers: [@Sendable (End) -> Void] = []
            for id in ids {
                if end == .revoked, var entry = state.entries[id] {
                    entry.isRevoked = true
                    state.entries[id] = entry
                }
                observers += state.observers.removeValue(forKey: id).map { Array($0.values) } ?? []
            }
            return observers
        }
        for observer in observers { observer(end) }
    }

    /// Calls `handler` once when session `id` is revoked. Returns a token for
    /// ``stopObserving(_:)``; the caller stops observing when it no longer cares (a socket
    /// that closed).
    public func observeEnd(of id: String, _ handler: @escaping @Sendable (End) -> Void) -> Observation {
        state.withLock { state in
            let key = state.nextObserver
            state.nextObserver += 1
            state.observers[id, default: [:]][key] = handler
            return Observation(sessionID: id, key: key)
        }
    }

    /// Forgets an observer registered with ``observeEnd(of:_:)``.
    public func stopObserving(_ observation: Observation) {
        state.withLock { state in
            state.observers[observation.sessionID]?[observation.key] = nil
            if state.observers[observation.sessionID]?.isEmpty == true { state.observers[observation.sessionID] = nil }
        }
    }

    /// How many observers are registered (for tests: none may leak).
    public var observerCount: Int {
        state.withLock { $0.observers.values.reduce(0) { $0 + $1.count } }
    }

    /// Identifies one registration of ``observeEnd(of:_:)``.
    public struct Observation: Sendable, Hashable {
        let sessionID: String
        let key: UInt64
    }
}
