import HearthHTTP
import HearthStore

/// `POST /_test/journal`, served only with `--test-endpoints`: records the request body as
/// a key through the real pool and commit path and answers 201 once the commit returned.
/// The crash-durability test uses it to know which writes were acknowledged before it
/// kills the server with SIGKILL. Its table is created on demand and is not part of the
/// product's schema.
struct TestJournalRoutes {
    let pool: any DatabaseWriter

    /// Creates the journal table when missing.
    static func prepare(_ pool: any DatabaseWriter) throws {
        try pool.write { database in
            try database.execute("CREATE TABLE IF NOT EXISTS test_journal (key TEXT PRIMARY KEY NOT NULL)")
        }
    }

    /// Adds the route.
    func register(in router: inout Router) {
        router.on(.post, "/_test/journal") { [pool] request in
            let key = String(decoding: request.body, as: UTF8.self)
            guard !key.isEmpty else { return .text("the body must hold a key", status: .badRequest) }
            try await pool.write { database in
                try database.execute("INSERT INTO test_journal (key) VALUES (?)", [key])
            }
            return .text("recorded", status: .created)
        }
    }
}
