import FoundationEssentials
import Glibc
import HearthStore
import Support

/// `hearth backup FILE`: a consistent copy of the database, taken while the server runs and
/// writes, checked, and put in place only when sound.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "Copy the database to FILE while the server runs, and check the copy"
    static let usage = """
    Usage: hearth backup FILE [--force] [--database PATH] [--key-directory PATH]

    Writes a consistent snapshot of the database to FILE (one read transaction's view) while the
    server goes on serving and writing: every write acknowledged before the backup began is
    in it, none that commits during it. The copy is written beside FILE under a temporary
    name, checked with SQLite's integrity_check and renamed to FILE only when sound, so FILE
    never holds half a backup. Prints the size, the time taken, the integrity result and
    the schema version; exits 1 when anything failed (FILE is then left as it was).

    The copy holds the data, readable by its owner only (0600). It does not hold the key
    directory (--key-directory, by default 'keys' beside the database): copy that directory
    too, once and after each key rotation. Without it a restored server works, but it makes
    new keys, so everyone signs in again, emailed links stop working and push subscriptions
    must be renewed. Restore with 'hearth restore FILE'.
    """
    static let options: [OptionSpec] = [
        .toggle("--force", help: "Replace FILE if it exists (by default an existing FILE is refused)."),
    ] + DatabaseSettings.options + KeySettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        guard options.positional.count == 1, let file = options.positional.first, !file.isEmpty else {
            throw UsageError(message: "expected the backup's file name: hearth backup FILE")
        }
        let settings = try DatabaseSettings(options)
        let keys = try KeySettings(options, databasePath: settings.path)
        let force = try options.isOn("--force")
        if FileManager.default.fileExists(atPath: file), !force {
            return failure("\(file) exists; pass --force to replace it")
        }
        // Beside FILE, so the final rename stays on one file system; named by this process.
        let partial = "\(file).partial-\(getpid())"
        try DurableFiles.removeIfPresent(partial)
        let started = ContinuousClock.now
        do {
            try settings.withExisting(command: "hearth backup", postgresAdvice: PostgresAdvice.backup) { pool in try pool.snapshot(into: partial) }
            let check = try DatabaseFileCheck(path: partial, migrator: DatabaseSettings.embeddedMigrator())
            guard check.isSound else {
                try DurableFiles.removeIfPresent(partial)
                return failure("the copy failed its integrity check, so \(file) was not written:\n" + check.integrity.joined(separator: "\n"))
            }
            try DurableFiles.move(partial, to: file)
            let elapsed = ContinuousClock.now - started
            print("backup \(file): \(DurableFiles.size(of: file)) bytes in \(milliseconds(elapsed)) ms, \(check.summary)")
            print("keys: not in the backup; keep a copy of \(keys.directory) with it")
            return 0
        } catch {
            try? DurableFiles.removeIfPresent(partial)
            throw error
        }
    }

    /// Whole milliseconds of `duration`.
    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    private static func failure(_ message: String) -> Int32 {
        StandardStreams.writeError("hearth backup: \(message)\n")
        return 1
    }
}
