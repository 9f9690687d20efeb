import FoundationEssentials
import HearthStore

/// `hearth migrate`: applies the migrations compiled into the binary, or lists their state.
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "Apply pending database migrations (or list them with --status)"
    static let usage = """
    Usage: hearth migrate [--status] [--database PATH|URL]

    Applies every pending migration compiled into this binary, each in its own transaction,
    and reports what it did. Refuses to touch a database whose recorded migrations differ
    from this binary's (an edited migration, or a database migrated by a newer hearth).
    """
    static let options: [OptionSpec] = [
        .toggle("--status", help: "List applied and pending migrations without changing anything."),
    ] + DatabaseSettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let settings = try DatabaseSettings(options)
        let migrator = try settings.migrator()
        let store = try settings.open()
        defer { store.close() }
        if try options.isOn("--status") {
            let status = try migrator.status(of: store.writer)
            for migration in status.applied {
                let version = String(migration.version)
                let fileName = String(repeating: "0", count: max(0, 4 - version.count)) + version + "_\(migration.name).sql"
                print("applied  \(fileName)  at \(migration.appliedAt)")
            }
            for migration in status.pending {
                print("pending  \(migration.fileName)")
            }
            for problem in status.problems {
                print("problem  \(problem.message)")
            }
            return status.problems.isEmpty ? 0 : 1
        }
        let applied = try store.migrate(migrator)
        for migration in applied {
            print("applied  \(migration.fileName)")
        }
        print(applied.isEmpty
            ? "database \(settings.displayName) is up to date (\(migrator.migrations.count) migrations)"
            : "applied \(applied.count) migration\(applied.count == 1 ? "" : "s") to \(settings.displayName)")
        return 0
    }
}
