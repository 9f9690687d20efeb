import Glibc

extension DatabasePool {
    /// Settings of a pool, fixed when it opens. Every field has a production default.
    public struct Configuration: Sendable, Hashable {
        /// SQLite's `synchronous` setting: how hard a commit pushes data to the disk.
        public enum Synchronous: String, Sendable, Hashable, CaseIterable {
            /// Commits may be lost on power failure (never on a process crash) in WAL mode.
            case normal = "NORMAL"
            /// Every commit is fsynced before it returns: an acknowledged write survives power loss.
            case full = "FULL"
            /// Like `full`, and also syncs the directory after deleting a journal.
            case extra = "EXTRA"
        }

        /// Reader connections, so up to this many reads run in parallel. Default 4, at least 1.
        public var readerCount: Int
        /// How long a connection waits for a lock held by another process before failing
        /// with `SQLITE_BUSY`. Default 5 seconds.
        public var busyTimeout: Duration
        /// Durability of commits. Default `.full`.
        public var synchronous: Synchronous
        /// Prepared statements kept per connection (least recently used evicted). Default 64.
        public var statementCacheCapacity: Int
        /// Permissions of a database file the pool creates (its `-wal` and `-shm` files take
        /// the same), and of its directory when the pool creates that, with search bits added
        /// for whoever may read. Default `0o600`: a database holds people's data, so only its
        /// owner reads it, whatever the process's umask. Existing files are left as they are.
        public var newFileMode: mode_t

        /// A configuration; every parameter defaults to the documented value.
        public init(
            readerCount: Int = 4,
            busyTimeout: Duration = .seconds(5),
            synchronous: Synchronous = .full,
            statementCacheCapacity: Int = 64,
            newFileMode: mode_t = 0o600
        ) {
            self.readerCount = readerCount
            self.busyTimeout = busyTimeout
            self.synchronous = synchronous
            self.statementCacheCapacity = statementCacheCapacity
            self.newFileMode = newFileMode
        }
    }
}
