import Foundation
import HearthStore
import Testing

/// `hearth serve` on PostgreSQL as an operator runs it: as a role of its own that owns an empty
/// database (so the server migrates it without superuser rights), signing in with the password
/// of `--database-password-file`, over TLS verified against the server's certificate
/// (`sslmode=verify-full`). A wrong password stops it with a clear error that never shows it.
@Suite struct PostgresOperatorConnectionTests {
    @Test func theServerMigratesAndServesAsAPasswordRoleOverVerifiedTLSAndNeverLogsThePassword() throws {
        try TemporaryPostgresDatabase.withPasswordRole { role, password in
            let (server, superuserURL) = try Self.server(role: role, password: password)
            defer { server.remove() }
            // A write and a read through the API (the kit's helpers that read the database would sign in without the password).
            let registered = try server.graphQL(
                "mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }",
                variables: ["input": ["username": "ana", "email": "ana@example.com", "password": "correct horse battery"]])
            let token = try #require(registered.data?["register"]?["tokens"]?["accessToken"]?.stringValue, "\(registered.json)")
            #expect(try server.graphQL("{ me { username } }", token: token).data?["me"]?["username"] == "ana")

            // Seen by the cluster's superuser: the server's connections, and the owner of its tables.
            let admin = try PostgresStore(configuration: .init(url: superuserURL, maxConnections: 1))
            defer { admin.close() }
            let (connections, plain, foreignTables) = try admin.read { db in
                let activity = "FROM pg_stat_activity a JOIN pg_stat_ssl s ON s.pid = a.pid WHERE a.datname = current_database() AND a.usename = ?"
                return (
                    try db.scalar(Int.self, "SELECT count(*) \(activity)", [role]) ?? 0,
                    try db.scalar(Int.self, "SELECT count(*) \(activity) AND NOT s.ssl", [role]) ?? 0,
                    try db.scalar(Int.self, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> ?", [role]) ?? 0)
            }
            #expect(connections >= 1)
            #expect(plain == 0, "every connection of the server's is encrypted")
            #expect(foreignTables == 0, "the role migrated the database itself")
            #expect(!server.log.contains(password))
        }
    }

    @Test func aWrongPasswordStopsTheServerWithAClearErrorThatDoesNotShowIt() throws {
        try TemporaryPostgresDatabase.withPasswordRole { role, password in
            let wrong = "wrong" + password
            let error = #expect(throws: ServerProcess.Failure.self) {
                try Self.server(role: role, password: wrong).server.remove()
            }
            let message = error?.description ?? ""
            #expect(message.contains("password authentication failed for user \"\(role)\""), "\(message)")
            #expect(!message.contains(wrong))
        }
    }

    /// A server on a new empty database owned by `role`, reached as `role` over verified TLS with
    /// `password` from a file (mode 600), and the database's URL for the cluster's superuser.
    private static func server(role: String, password: String) throws -> (server: ServerProcess, superuserURL: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try TemporaryPostgresDatabase.createEmptyDatabase(ownedBy: role)
        let url = TemporaryPostgresDatabase.url(
            database, user: role, parameters: ["sslmode": "verify-full", "sslrootcert": try TemporaryPostgresDatabase.serverCertificatePath()])
        try url.write(to: directory.appendingPathComponent("postgres-url"), atomically: true, encoding: .utf8)
        let passwordFile = directory.appendingPathComponent("database-password").path
        try (password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile)
        do {
            return (try ServerProcess(directory: directory, arguments: ["--database-password-file", passwordFile]), database)
        } catch {
            try? TemporaryPostgresDatabase.dropDatabase(database)
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }
}
