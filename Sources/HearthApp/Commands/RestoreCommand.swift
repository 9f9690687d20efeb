import FoundationEssentials
import Glibc
import HearthStore
import Support

/// `hearth restore FILE`: puts a backup in the database's place, with the server stopped.
enum RestoreCommand: Command {
    static let name = "restore"
    static let summary = "Replace the database with a backup (the server must be stopped)"
    static let usage = """
    Usage: hearth restore FILE [--discard-current] [--database PATH]

    Replaces the database with the backup FILE (made by 'hearth backup'). Refuses while a
    server uses the database (it holds PATH.lock; stop it first), and refuses a FILE that
    fails SQLite's integrity_check, is not a Hearth database, or was migrated by a newer hearth
    than this one (a backup of an older version is fine: the server applies the missing
    migrations when it next starts).

    FILE is copied beside the database and checked there, then renamed into place in one
    step; the database's stale -wal, -shm and -journal files go with the replaced database,
    which is kept as PATH.before-restore-TIME (with its -wal) unless --discard-current is
    given. FILE itself is left as it is. Restore the key directory too if it was lost (see
    'hearth backup --help'). Exits 1 when it refused or failed; the database is then
    unchanged.
    """
    static let options: [OptionSpec] = [
        .toggle("--discard-current", help: "Delete the replaced database instead of keeping it as PATH.before-restore-TIME."),
    ] + DatabaseSettings.options

    /// The files SQLite keeps beside a database: they belong to the replaced one, never to the restored one.
    static let companionSuffixes = ["-wal", "-journal", "-shm"]

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        guard options.positional.count == 1, let file = options.positional.first, !file.isEmpty else {
            throw UsageError(message: "expected the backup's file name: hearth restore FILE")
        }
        let settings = try DatabaseSettings(options)
        try settings.requireSQLite(command: "hearth restore", postgresAdvice: PostgresAdvice.restore)
        let discard = try options.isOn("--discard-current")
        let database = settings.path
        guard FileManager.default.fileExists(atPath: file) else { return failure("no backup at \(file)") }
        let lock: DatabaseLock
        do { lock = try DatabaseLock(databasePath: database, mode: .restoring) } catch let error as DatabaseLockError { return failure(error.message) }
        defer { lock.release() }

        let staged = "\(database).restoring-\(getpid())"
        try DurableFiles.removeIfPresent(staged)
        defer { for suffix in [""] + companionSuffixes { try? DurableFiles.removeIfPresent(staged + suffix) } }
        try DurableFiles.copy(file, to: staged, mode: settings.pool.newFileMode)
        let check: DatabaseFileCheck
        do {
            check = try DatabaseFileCheck(path: staged, migrator: DatabaseSettings.embeddedMigrator())
        } catch let error as StoreError {
            return failure("\(file) is not a database this hearth can read: \(error.message)")
        }
        if let refusal = refusal(of: check, file: file) { return failure(refusal) }

        let kept = discard ? nil : "\(database).before-restore-\(timestamp())"
        try setAside(database, keepingAs: kept)
        try DurableFiles.move(staged, to: database)
        print("restored \(file) to \(database): \(DurableFiles.size(of: database)) bytes, \(check.summary)")
        if !check.migrations.pending.isEmpty {
            print("the server applies \(check.migrations.pending.count) newer migration(s) when it next starts")
        }
        if let kept, FileManager.default.fileExists(atPath: kept) { print("the replaced database is kept as \(kept)") }
        return 0
    }

    /// Why `check` of the backup `file` forbids restoring it, if it does.
    static func refusal(of check: DatabaseFileCheck, file: String) -> String? {
        guard check.isSound else {
            return "\(file) failed its integrity check, nothing was changed:\n" + check.integrity.prefix(20).joined(separator: "\n")
        }
        guard check.schemaVersion != nil else { return "\(file) is not a Hearth database (it records no migrations), nothing was changed" }
        if let problem = check.migrations.problems.first(where: { $0.code == .unknownVersion }) {
            return "\(file) comes from a newer hearth than this one (it records migration \(problem.version.map(String.init) ?? "?"), "
                + "which this binary does not know); restore it with that version, nothing was changed"
        }
        if let problem = check.migrations.problems.first { return "\(file) does not match this hearth: \(problem.message); nothing was changed" }
        return nil
    }

    /// Moves the database at `path` and the files SQLite keeps beside it out of the way: renamed
    /// to `kept` (its log too, so the kept copy loses nothing) or, when `kept` is nil, deleted.
    /// The shared-memory index is always deleted: it describes a log that is no longer there.
    static func setAside(_ path: String, keepingAs kept: String?) throws {
        for suffix in [""] + companionSuffixes where FileManager.default.fileExists(atPath: path + suffix) {
            if let kept, suffix != "-shm" {
                try DurableFiles.move(path + suffix, to: kept + suffix)
            } else {
                try DurableFiles.removeIfPresent(path + suffix)
            }
        }
    }

    /// Now, for file names, to the millisecond: `20261203T055500123Z`.
    static func timestamp() -> String {
        String(WallClock.Instant(Date()).iso8601.filter { $0.isNumber || $0 == "T" }.prefix(18)) + "Z"
    }

    private static func failure(_ message: String) -> Int32 {
        StandardStreams.writeError("hearth restore: \(message)\n")
        return 1
    }
}
