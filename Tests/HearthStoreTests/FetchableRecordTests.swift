import FoundationEssentials
import HearthStore
import Testing

/// A record read by position, as the services' records are.
private struct Pet: FetchableRecord, Equatable {
    enum Kind: String { case cat, dog }

    static let columns = RecordColumns("id", "name", "kind", "nickname", "born_at", "weight")

    var id: Int
    var name: String
    var kind: Kind
    var nickname: String?
    var bornAt: Date
    var weight: Double?

    init(id: Int, name: String, kind: Kind, nickname: String?, bornAt: Date, weight: Double?) {
        (self.id, self.name, self.kind, self.nickname, self.bornAt, self.weight) = (id, name, kind, nickname, bornAt, weight)
    }

    init(row: RecordRow) throws {
        id = try row[0]
        name = try row[1]
        kind = try row[2]
        nickname = try row[3]
        bornAt = try row[4]
        weight = try row[5]
    }
}

/// A second record for joins: its `id` and `name` columns repeat the pet's.
private struct Owner: FetchableRecord, Equatable {
    static let columns = RecordColumns("id", "name")
    var id: Int
    var name: String

    init(id: Int, name: String) {
        (self.id, self.name) = (id, name)
    }

    init(row: RecordRow) throws {
        id = try row[0]
        name = try row[1]
    }
}

/// Reading ``FetchableRecord``s: by position when the select lists the record's columns first,
/// by name otherwise (once per statement), the record's columns from an offset in a join,
/// missing columns and values that do not convert, and the pool's statement counters that
/// show what a read costs.
@Suite struct FetchableRecordTests {
    private static let born = Date(timeIntervalSince1970: 1_700_000_000.25)
    private static let tom = Pet(id: 1, name: "Tom", kind: .cat, nickname: nil, bornAt: born, weight: 4.5)
    private static let rex = Pet(id: 2, name: "Rex", kind: .dog, nickname: "Rexy", bornAt: born.addingTimeInterval(60), weight: nil)

    private func withPets<T>(_ body: (DatabasePool) throws -> T) throws -> T {
        try TemporaryDatabase.withPool { pool in
            try pool.write { db throws in
                try db.execute("CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                try db.execute(
                    """
                    CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, nickname TEXT,
                        born_at TEXT NOT NULL, weight REAL, owner_id INTEGER REFERENCES owners (id))
                    """)
                try db.execute("INSERT INTO owners (id, name) VALUES (7, 'Ana')")
                for pet in [Self.tom, Self.rex] {
                    try db.execute(
                        "INSERT INTO pets (id, name, kind, nickname, born_at, weight, owner_id) VALUES (?, ?, ?, ?, ?, ?, 7)",
                        [pet.id, pet.name, pet.kind.rawValue, pet.nickname, pet.bornAt, pet.weight])
                }
            }
            return try body(pool)
        }
    }

    @Test func readsRecordsFromTheirColumnsAndFromColumnsListedInAnotherOrder() throws {
        try withPets { pool in
            try pool.read { db throws in
                #expect(try db.decode(Pet.self, "SELECT \(Pet.columns) FROM pets ORDER BY id") == [Self.tom, Self.rex])
                #expect(try db.decode(Pet.self, "SELECT \(Pet.columns), owner_id FROM pets ORDER BY id") == [Self.tom, Self.rex])
                let shuffled = "SELECT owner_id, weight, BORN_AT, nickname, kind, name, id FROM pets ORDER BY id"
                #expect(try db.decode(Pet.self, shuffled) == [Self.tom, Self.rex], "found by name, case-insensitively, as SQL does")
                #expect(try db.decodeOne(Pet.self, "SELECT * FROM pets WHERE id = ?", [2]) == Self.rex)
                #expect(try db.decodeOne(Pet.self, "SELECT * FROM pets WHERE id = ?", [3]) == nil)
                #expect(try db.queryOne("SELECT * FROM pets WHERE id = 1")?.decode(Pet.self) == Self.tom)
            }
        }
    }

    @Test func readsEachRecordOfAJoinFromItsOwnColumnsThoughNamesRepeat() throws {
        try withPets { pool in
            let pairs = try pool.read { db throws in
                try db.query(
                    "SELECT \(Pet.columns.qualified(by: "p")), \(Owner.columns.qualified(by: "o")) FROM pets p JOIN owners o ON o.id = p.owner_id ORDER BY p.id"
                ).map { row in (try row.decode(Pet.self, at: 0), try row.decode(Owner.self, at: Pet.columns.count)) }
            }
            #expect(pairs.map(\.0) == [Self.tom, Self.rex])
            #expect(pairs.map(\.1) == [Owner(id: 7, name: "Ana"), Owner(id: 7, name: "Ana")], "not the pet's id and name")
            let reordered = try pool.read { db throws in
                try db.queryOne("SELECT p.id, o.name, p.name, o.id FROM pets p JOIN owners o ON o.id = p.owner_id WHERE p.id = 2")
            }
            #expect(try reordered?.decode(Owner.self, at: 1) == Owner(id: 7, name: "Ana"), "from the offset on, by name")
        }
    }

    @Test func aMissingColumnIsNilForAnOptionalAndAnErrorOtherwise() throws {
        try withPets { pool in
            try pool.read { db throws in
                let light = try db.decodeOne(Pet.self, "SELECT id, name, kind, born_at FROM pets WHERE id = 1")
                #expect(light?.nickname == nil && light?.weight == nil && light?.name == "Tom")
                let error = #expect(throws: StoreError.self) { try db.decodeOne(Pet.self, "SELECT id, kind, born_at FROM pets") }
                #expect(error?.extendedCode == .range)
                #expect(error?.message.contains("'name'") == true)
            }
        }
    }

    @Test func aValueThatDoesNotConvertNamesItsColumn() throws {
        try withPets { pool in
            try pool.write { db in try db.execute("UPDATE pets SET kind = 'parrot' WHERE id = 2") }
            try pool.read { db throws in
                let unknownCase = #expect(throws: StoreError.self) { try db.decodeOne(Pet.self, "SELECT * FROM pets WHERE id = 2") }
                #expect(unknownCase?.extendedCode == .mismatch && unknownCase?.message.contains("'kind'") == true)
                let text = #expect(throws: StoreError.self) {
                    try db.decodeOne(Pet.self, "SELECT id, name, kind, nickname, 'soon' AS born_at FROM pets WHERE id = 1")
                }
                #expect(text?.extendedCode == .mismatch && text?.message.contains("'born_at'") == true)
            }
        }
    }

    @Test func aStatementRePreparedAfterASchemaChangeFindsItsColumnsAgain() throws {
        try withPets { pool in
            try pool.write { db throws in
                let sql = "SELECT * FROM pets WHERE id = 1"
                #expect(try db.decodeOne(Pet.self, sql) == Self.tom)
                // `SELECT *` now starts with other columns: the cached statement is re-prepared by
                // SQLite, and the record's columns are looked up afresh.
                try db.execute("ALTER TABLE pets RENAME TO old_pets")
                try db.execute("CREATE TABLE pets (tag TEXT, id INTEGER, name TEXT, kind TEXT, nickname TEXT, born_at TEXT, weight REAL)")
                try db.execute("INSERT INTO pets SELECT 'x', id, name, kind, nickname, born_at, weight FROM old_pets")
                #expect(try db.decodeOne(Pet.self, sql) == Self.tom)
            }
        }
    }

    @Test func thePoolCountsTheStatementsItExecutesAndCompiles() throws {
        try withPets { pool in
            try pool.read { _ in }  // the transaction's own statements compiled, on the reader used next
            let before = pool.statistics
            try pool.read { db throws in
                for id in [1, 2, 1] { _ = try db.decodeOne(Pet.self, "SELECT * FROM pets WHERE id = ? /* counted */", [id]) }
            }
            let after = pool.statistics
            #expect(after.readers.statements - before.readers.statements == 3 + 3, "three reads, and BEGIN, the snapshot's pin and COMMIT")
            #expect(after.readers.preparedStatements - before.readers.preparedStatements == 1, "compiled once, then from the cache")
            #expect(after.writer.statements == before.writer.statements)
            try pool.write { db in try db.execute("UPDATE pets SET weight = 5 WHERE id = 1") }
            #expect(pool.statistics.writer.statements - after.writer.statements == 3, "BEGIN IMMEDIATE, the update, COMMIT")
        }
    }
}
