import FoundationEssentials
import Glibc

/// The lock file beside the database (`PATH.lock`) that tells whether a server uses it.
///
/// `hearth serve` holds a shared `flock` on it for as long as it runs, and `hearth restore`
/// takes it exclusively: a restore never swaps the file under a running server, and no server
/// opens the database in the middle of a restore. The kernel drops a `flock` when its process
/// ends however it ends (`kill -9` included), so a crash leaves no stale lock; the file itself
/// stays, empty. Shared, so that the few processes allowed to share a database (a second
/// server during a rolling restart) still may. Commands that only read or briefly write
/// (`backup`, `jobs`, `admin`) take no lock: SQLite's own locks make them take turns.
final class DatabaseLock: Sendable {
    /// How the lock is held.
    enum Mode: Sendable {
        /// Shared, by `hearth serve`.
        case serving
        /// Exclusive, by `hearth restore`.
        case restoring
    }

    /// The lock file.
    let path: String
    private let descriptor: Int32

    /// The lock file of the database at `databasePath`.
    static func path(for databasePath: String) -> String { databasePath + ".lock" }

    /// Takes the lock of the database at `databasePath` in `mode`, without waiting; creates the
    /// lock file (0600), and its directory (0700), when missing.
    /// - Throws: ``DatabaseLockError`` when another process holds the lock in a conflicting
    ///   mode, or the file cannot be opened.
    init(databasePath: String, mode: Mode) throws {
        path = Self.path(for: databasePath)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DatabaseLockError(message: "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        var status: Int32
        repeat {
            status = flock(descriptor, (mode == .serving ? LOCK_SH : LOCK_EX) | LOCK_NB)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw DatabaseLockError(message: "cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            throw DatabaseLockError(message: mode == .serving
                ? "a restore is replacing the database \(databasePath) (it holds \(path)); start the server once it has finished"
                : "a server is using the database \(databasePath) (it holds \(path)); stop it first, then restore")
        }
        self.descriptor = descriptor
    }

    /// Releases the lock (the process's end releases it too).
    func release() {
        Glibc.close(descriptor)
    }
}
