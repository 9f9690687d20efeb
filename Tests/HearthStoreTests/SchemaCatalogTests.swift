import HearthStore
import Testing

/// ``SchemaCatalog`` on SQLite: what it reads of each kind of object, and the differences it lists.
/// (Both dialects on the repository's migrations: `DialectSchemaTests` in HearthServicesTests.)
@Suite struct SchemaCatalogTests {
    private static let schema = """
        CREATE TABLE owners (id TEXT PRIMARY KEY NOT NULL, email TEXT NOT NULL UNIQUE) STRICT;
        CREATE TABLE items (
            id       INTEGER PRIMARY KEY AUTOINCREMENT,
            owner_id TEXT REFERENCES owners (id) ON DELETE CASCADE,
            code     TEXT,
            state    TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'done', 'check')), -- not a CHECK
            weight   REAL CHECK (weight >= 0),
            picture  BLOB,
            UNIQUE (owner_id, code)
        ) STRICT;
        CREATE INDEX items_state ON items (state, id) WHERE state <> 'done';
        CREATE UNIQUE INDEX items_code ON items (owner_id, coalesce(code, ''));
        ALTER TABLE owners ADD COLUMN "check" INTEGER CHECK ("check" > 0);
        CREATE TABLE tags (item_id INTEGER NOT NULL REFERENCES items, tag TEXT NOT NULL, PRIMARY KEY (tag, item_id)) STRICT;
        """

    private func catalog() throws -> SchemaCatalog {
        try TemporaryDatabase.withPool { pool in
            try pool.write { database in try database.executeScript(Self.schema) }
            return try pool.read { try SchemaCatalog.read($0) }
        }
    }

    @Test func readsTablesColumnsKeysAndIndexes() throws {
        let catalog = try catalog()
        #expect(Set(catalog.tables.keys) == ["owners", "items", "tags"], "sqlite_sequence is SQLite's own")
        let items = try #require(catalog.tables["items"])
        #expect(items.columns.map(\.description) == [
            "id integer NOT NULL GENERATED KEY", "owner_id text", "code text", "state text NOT NULL DEFAULT", "weight real",
            "picture blob",
        ])
        #expect(items.primaryKey == ["id"])
        #expect(items.uniqueKeys == [["owner_id", "code"]])
        #expect(items.foreignKeys == [
            SchemaCatalog.ForeignKey(columns: ["owner_id"], table: "owners", referencedColumns: ["id"], onDelete: "CASCADE"),
        ])
        #expect(items.indexes == [
            "items_state": SchemaCatalog.Index(name: "items_state", columns: ["state", "id"], isUnique: false, isPartial: true),
            "items_code": SchemaCatalog.Index(
                name: "items_code", columns: ["owner_id", SchemaCatalog.Index.expression], isUnique: true, isPartial: false),
        ])
        #expect(items.checkCount == 2, "CHECK in a string or a comment is none")
        #expect(catalog.tables["owners"]?.checkCount == 1, "a column added with a CHECK has it")
        #expect(catalog.tables["tags"]?.checkCount == 0)
        #expect(catalog.tables["owners"]?.uniqueKeys == [["email"]], "a column's UNIQUE is a unique key")
        #expect(catalog.tables["owners"]?.indexes.isEmpty == true, "the keys' own indexes are not listed as indexes")
        let tags = try #require(catalog.tables["tags"])
        #expect(tags.primaryKey == ["tag", "item_id"], "in key order, not column order")
        #expect(tags.columns.map(\.isGeneratedKey) == [false, false], "only a one-column INTEGER PRIMARY KEY is the rowid")
        #expect(tags.foreignKeys.first?.referencedColumns == ["id"], "a reference without columns is to the primary key")
        #expect(tags.foreignKeys.first?.onDelete == "NO ACTION")
    }

    @Test func differencesNameEveryMismatch() throws {
        let original = try catalog()
        #expect(original.differences(named: "a", from: original, named: "b").isEmpty)
        var changed = original
        changed.tables["owners"] = nil
        changed.tables["items"]?.columns[4].type = "text"
        changed.tables["items"]?.columns[2].notNull = true
        changed.tables["items"]?.columns.swapAt(0, 1)
        changed.tables["items"]?.uniqueKeys = []
        changed.tables["items"]?.checkCount = 1
        changed.tables["items"]?.indexes["items_state"]?.isPartial = false
        changed.tables["tags"]?.foreignKeys = []
        changed.tables["tags"]?.primaryKey = ["item_id", "tag"]
        #expect(original.differences(named: "sqlite", from: changed, named: "postgresql") == [
            "index items.items_state: sqlite (state, id) WHERE …, postgresql (state, id)",
            "items CHECK constraints: sqlite 2, postgresql 1",
            "items UNIQUE (owner_id, code): only in sqlite",
            "items column order: sqlite id, owner_id, code, state, weight, picture, postgresql owner_id, id, code, state, weight, picture",
            "items.code: sqlite code text, postgresql code text NOT NULL",
            "items.weight: sqlite weight real, postgresql weight text",
            "table owners: only in sqlite",
            "tags FOREIGN KEY (item_id) REFERENCES items (id) ON DELETE NO ACTION: only in sqlite",
            "tags primary key: sqlite (tag, item_id), postgresql (item_id, tag)",
        ])
    }
}
