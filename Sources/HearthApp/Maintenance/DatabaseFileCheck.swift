import HearthStore

/// What `backup` and `restore` check of a database file before they put it anywhere: that
/// SQLite finds it sound (`PRAGMA integrity_check`) and which of this binary's migrations it
/// holds.
struct DatabaseFileCheck {
    /// The lines of `PRAGMA integrity_check`: `["ok"]` for a sound file.
    var integrity: [String]
    /// Its migrations against this binary's: applied, pending, and the versions it does not know
    /// (a newer binary's) among the problems.
    var migrations: MigrationStatus

    /// Checks the database file at `path` against `migrator`'s migrations.
    /// - Throws: ``StoreError`` when the file cannot be opened or is not a database.
    init(path: String, migrator: Migrator) throws {
        (integrity, migrations) = try DatabaseFile.inspect(path) { database in
            (try database.integrityCheck(), try migrator.status(of: database))
        }
    }

    /// Whether SQLite found nothing wrong.
    var isSound: Bool { integrity == ["ok"] }

    /// The highest migration applied: the schema version; `nil` for a database Hearth never
    /// migrated.
    var schemaVersion: Int? { migrations.applied.last.map { Int($0.version) } }

    /// One line for the command's output: `integrity ok, schema version 44 (40 migrations)`.
    var summary: String {
        let integrityText = isSound ? "integrity ok" : "integrity check failed (\(integrity.count) problem\(integrity.count == 1 ? "" : "s"))"
        let schema = schemaVersion.map { "schema version \($0) (\(migrations.applied.count) migrations)" } ?? "no Hearth schema"
        return "\(integrityText), \(schema)"
    }
}
