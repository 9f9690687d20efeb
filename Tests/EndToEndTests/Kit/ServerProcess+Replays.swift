import Foundation
import GraphQL
import HearthStore
import Testing

/// Replays of every mutation through the binary (issue 17, "replay everywhere").
extension ServerProcess {
    /// Tables whose rows change without a mutation (scheduled jobs, mail delivery, sessions a
    /// request refreshes): left out of ``contents()``.
    static let backgroundTables: Set<String> = ["jobs", "mail_outbox", "sessions", "spent_refresh_tokens", "change_log_retention"]

    /// Every row of every other table, by table: what a replay must leave as it found it.
    func contents() throws -> [String: [Row]] {
        try TemporaryDatabase.withExisting(database) { store in
            try store.read { database in
                var contents: [String: [Row]] = [:]
                for table in try Self.tableNames(in: database) where !Self.backgroundTables.contains(table) && !table.contains("search") {
                    contents[table] = try database.query("SELECT * FROM \"\(table)\"")
                }
                return contents
            }
        }
    }

    /// The names of the tables of the server's database, from the catalogue of this run's store.
    private static func tableNames(in database: Database) throws -> [String] {
        let sql = switch TestDatabaseStore.current {
        case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        case .postgreSQL: "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        }
        return try database.query(sql).map { try $0["name"] }
    }

    /// Sends mutation `name` (input type `inputType`) with `fields` under the `clientMutationId`
    /// `<name>-replay`, then again with `changed` merged into the input: the first must succeed,
    /// the replay must answer the same `clientMutationId` without an error and leave every table as
    /// the first left it (after the jobs it caused have run). Returns the first payload (select
    /// what later steps need with `selection`).
    @discardableResult
    func expectReplay(
        _ name: String, _ inputType: String, _ fields: [String: JSON], changed: [String: JSON] = [:], selecting selection: String = "",
        as person: Person, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> JSON {
        let document = "mutation($input: \(inputType)!) { \(name)(input: $input) { clientMutationId \(selection) } }"
        let clientMutationID: JSON = .string("\(name)-replay")
        let first = try graphQL(document, variables: Self.input(fields.merging(["clientMutationId": clientMutationID]) { _, new in new }), token: person.token)
        #expect(first.json["errors"] == nil, "\(name): \(first.json)", sourceLocation: sourceLocation)
        try waitForDueJobs()
        let before = try contents()
        let replayed = fields.merging(changed) { _, new in new }.merging(["clientMutationId": clientMutationID]) { _, new in new }
        let replay = try graphQL(document, variables: Self.input(replayed), token: person.token)
        #expect(replay.json["errors"] == nil, "\(name) replayed: \(replay.json)", sourceLocation: sourceLocation)
        #expect(replay.data?[name]?["clientMutationId"] == clientMutationID, "\(name)", sourceLocation: sourceLocation)
        try waitForDueJobs()
        let after = try contents()
        let differing = before.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(differing.isEmpty, "\(name)'s replay changed \(differing)", sourceLocation: sourceLocation)
        return first.data?[name] ?? .null
    }
}
