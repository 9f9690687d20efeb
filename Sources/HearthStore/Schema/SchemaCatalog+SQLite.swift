extension SchemaCatalog {
    /// Reads the catalog of the database `database` is connected to, in its dialect.
    public static func read(_ database: Database) throws -> SchemaCatalog {
        switch database.dialect {
        case .sqlite: try readSQLite(database)
        case .postgresql: try readPostgreSQL(database)
        }
    }

    /// The tables the catalog leaves out in either dialect: the migrator's record.
    static let excludedTables: Set<String> = [Migrator.tableName]

    /// SQLite's catalog, from its pragmas: the ordinary and virtual tables of `main` (a full-text
    /// table's shadow tables and SQLite's own `sqlite_` tables are left out).
    static func readSQLite(_ database: Database) throws -> SchemaCatalog {
        let tables = try database.query(
            """
            SELECT l.name, l.wr, coalesce(m.sql, '') AS sql FROM pragma_table_list AS l LEFT JOIN sqlite_master AS m ON m.name = l.name
            WHERE l.schema = 'main' AND l.type IN ('table', 'virtual') ORDER BY l.name
            """
        ).filter { row in
            let name: String = try row["name"]
            return !name.hasPrefix("sqlite_") && !excludedTables.contains(name)
        }
        return SchemaCatalog(tables: try tables.map { row in
            try sqliteTable(try row["name"], withoutRowID: try row["wr"] as Int != 0, checkCount: checkCount(of: try row["sql"]), database)
        })
    }

    private static func sqliteTable(_ name: String, withoutRowID: Bool, checkCount: Int, _ database: Database) throws -> Table {
        let columnRows = try database.query(
            "SELECT name, type, \"notnull\" AS not_null, dflt_value IS NOT NULL AS has_default, pk FROM pragma_table_xinfo(?) ORDER BY cid",
            [name])
        let keyed = try columnRows.compactMap { row -> (Int, String)? in
            let position: Int = try row["pk"]
            return position > 0 ? (position, try row["name"]) : nil
        }
        let primaryKey = keyed.sorted { $0.0 < $1.0 }.map(\.1)
        let columns = try columnRows.map { row in
            let columnName: String = try row["name"]
            let declared = (try row["type"] as String).uppercased()
            // A one-column INTEGER PRIMARY KEY of a rowid table is the rowid: SQLite assigns it.
            let isRowID = !withoutRowID && primaryKey == [columnName] && declared == "INTEGER"
            return Column(
                name: columnName, type: sqliteType(declared),
                notNull: try row["not_null"] as Int != 0 || primaryKey.contains(columnName),
                hasDefault: try row["has_default"] as Int != 0, isGeneratedKey: isRowID)
        }
        var uniqueKeys: Set<[String]> = []
        var indexes: [Index] = []
        for row in try database.query("SELECT name, \"unique\" AS is_unique, origin, partial FROM pragma_index_list(?)", [name]) {
            let indexName: String = try row["name"]
            let indexColumns = try database.query(
                "SELECT cid, name FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", [indexName]
            ).map { column in try column["cid"] as Int == -2 ? Index.expression : try column["name"] as String }
            switch try row["origin"] as String {
            case "u": uniqueKeys.insert(indexColumns)
            case "c":
                indexes.append(Index(
                    name: indexName, columns: indexColumns, isUnique: try row["is_unique"] as Int != 0,
                    isPartial: try row["partial"] as Int != 0))
            default: break  // the primary key's own index
            }
        }
        return Table(
            name: name, columns: columns, primaryKey: primaryKey, uniqueKeys: uniqueKeys,
            foreignKeys: try sqliteForeignKeys(of: name, database), indexes: indexes, checkCount: checkCount)
    }

    private static func sqliteForeignKeys(of table: String, _ database: Database) throws -> Set<ForeignKey> {
        let rows = try database.query(
            "SELECT id, \"table\" AS target, \"from\" AS source, \"to\" AS referenced, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
            [table])
        var keys: [Int: ForeignKey] = [:]
        for row in rows {
            let id: Int = try row["id"]
            let target: String = try row["target"]
            let first = ForeignKey(columns: [], table: target, referencedColumns: [], onDelete: try row["on_delete"])
            var key = keys[id] ?? first
            key.columns.append(try row["source"])
            if let referenced = try row["referenced"] as String? { key.referencedColumns.append(referenced) }
            keys[id] = key
        }
        // A key that names no columns refers to the target's primary key.
        return Set(try keys.values.map { key in
            guard key.referencedColumns.isEmpty else { return key }
            var resolved = key
            resolved.referencedColumns = try database.query(
                "SELECT name FROM pragma_table_xinfo(?) WHERE pk > 0 ORDER BY pk", [key.table]
            ).map { try $0["name"] as String }
            return resolved
        })
    }

    /// How many `CHECK` keywords the stored `CREATE TABLE` text `sql` holds outside comments,
    /// quoted strings and identifiers: SQLite keeps no list of a table's constraints, only that text
    /// (with the clauses `ALTER TABLE … ADD COLUMN` appended).
    static func checkCount(of sql: String) -> Int {
        var count = 0
        var word = ""
        var characters = sql.unicodeScalars.makeIterator()
        var pending = characters.next()
        func endWord() {
            if word.uppercased() == "CHECK" { count += 1 }
            word = ""
        }
        while let character = pending {
            pending = characters.next()
            switch character {
            case "-" where pending == "-":
                endWord()
                while let skipped = pending, skipped != "\n" { pending = characters.next() }
            case "'", "\"", "`":
                endWord()
                // A doubled quote inside is the quote itself: the literal goes on after it.
                while let skipped = pending {
                    pending = characters.next()
                    if skipped == character {
                        guard pending == character else { break }
                        pending = characters.next()
                    }
                }
            case _ where character.properties.isAlphabetic || character == "_" || ("0"..."9").contains(character):
                word.unicodeScalars.append(character)
            default:
                endWord()
            }
        }
        endWord()
        return count
    }

    /// SQLite's declared type by its affinity rules, as the normalised type.
    private static func sqliteType(_ declared: String) -> String {
        if declared.contains("INT") { return "integer" }
        if declared.contains("CHAR") || declared.contains("CLOB") || declared.contains("TEXT") { return "text" }
        if declared.isEmpty || declared.contains("BLOB") { return "blob" }
        if declared.contains("REAL") || declared.contains("FLOA") || declared.contains("DOUB") { return "real" }
        return "numeric"
    }
}
