extension SchemaCatalog {
    /// PostgreSQL's catalog, from `pg_catalog`: the ordinary and partitioned tables of the current
    /// schema. Three statements, each over every table: the columns, the keys (primary, unique and
    /// foreign, column by column) and the indexes not backing a key.
    static func readPostgreSQL(_ database: Database) throws -> SchemaCatalog {
        var columns: [String: [Column]] = [:]
        for row in try database.query(postgreSQLColumns) {
            let type: String = try row["type"]
            let collation: String = try row["collation_name"]
            columns[try row["table_name"], default: []].append(Column(
                name: try row["column_name"], type: postgreSQLType(type, collation: collation),
                notNull: try row["not_null"] as Int != 0, hasDefault: try row["has_default"] as Int != 0,
                isGeneratedKey: try row["is_identity"] as Int != 0))
        }
        var primaryKeys: [String: [String]] = [:]
        var uniqueKeys: [String: [String: [String]]] = [:]
        var foreignKeys: [String: [String: ForeignKey]] = [:]
        for row in try database.query(postgreSQLKeys) {
            let table: String = try row["table_name"]
            let name: String = try row["constraint_name"]
            let column: String = try row["column_name"]
            switch try row["kind"] as String {
            case "p": primaryKeys[table, default: []].append(column)
            case "u": uniqueKeys[table, default: [:]][name, default: []].append(column)
            default:
                let first = ForeignKey(
                    columns: [], table: try row["target"], referencedColumns: [], onDelete: postgreSQLAction(try row["on_delete"]))
                var key = foreignKeys[table]?[name] ?? first
                key.columns.append(column)
                key.referencedColumns.append(try row["referenced"])
                foreignKeys[table, default: [:]][name] = key
            }
        }
        var checkCounts: [String: Int] = [:]
        for row in try database.query(postgreSQLChecks) {
            checkCounts[try row["table_name"]] = try row["check_count"]
        }
        var indexes: [String: [String: Index]] = [:]
        for row in try database.query(postgreSQLIndexes) {
            let table: String = try row["table_name"]
            let name: String = try row["index_name"]
            let column: String = try row["column_name"]
            let first = Index(
                name: name, columns: [], isUnique: try row["is_unique"] as Int != 0, isPartial: try row["is_partial"] as Int != 0)
            var index = indexes[table]?[name] ?? first
            index.columns.append(column.isEmpty ? Index.expression : column)
            indexes[table, default: [:]][name] = index
        }
        return SchemaCatalog(tables: columns.filter { !excludedTables.contains($0.key) }.map { table, columns in
            Table(
                name: table, columns: columns, primaryKey: primaryKeys[table] ?? [],
                uniqueKeys: Set((uniqueKeys[table] ?? [:]).values), foreignKeys: Set((foreignKeys[table] ?? [:]).values),
                indexes: Array((indexes[table] ?? [:]).values), checkCount: checkCounts[table] ?? 0)
        })
    }

    /// PostgreSQL's type as the normalised type; text of another collation than `C` says which.
    private static func postgreSQLType(_ type: String, collation: String) -> String {
        switch type {
        case "bigint", "integer", "smallint": "integer"
        case "text": collation == "C" ? "text" : "text collate \(collation)"
        case "double precision", "real": "real"
        case "bytea": "blob"
        default: type
        }
    }

    /// `pg_constraint.confdeltype` as the action's SQL name.
    private static func postgreSQLAction(_ code: String) -> String {
        switch code {
        case "c": "CASCADE"
        case "n": "SET NULL"
        case "d": "SET DEFAULT"
        case "r": "RESTRICT"
        default: "NO ACTION"
        }
    }

    /// Every column of every table, in table and column order. A generated column's expression is
    /// no default; an identity column is a generated key.
    private static let postgreSQLColumns = """
        SELECT c.relname::text AS table_name, a.attname::text AS column_name, format_type(a.atttypid, a.atttypmod) AS type,
            coalesce(co.collname::text, '') AS collation_name, CASE WHEN a.attnotnull THEN 1 ELSE 0 END AS not_null,
            CASE WHEN a.atthasdef AND a.attgenerated = '' THEN 1 ELSE 0 END AS has_default,
            CASE WHEN a.attidentity <> '' THEN 1 ELSE 0 END AS is_identity
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
        LEFT JOIN pg_collation co ON co.oid = a.attcollation
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attnum
        """

    /// Every column of every primary, unique and foreign key, in key order, with the column a
    /// foreign key's refers to.
    private static let postgreSQLKeys = """
        SELECT t.relname::text AS table_name, c.conname::text AS constraint_name, c.contype::text AS kind,
            a.attname::text AS column_name, coalesce(r.relname::text, '') AS target, coalesce(ra.attname::text, '') AS referenced,
            c.confdeltype::text AS on_delete
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
        LEFT JOIN pg_class r ON r.oid = c.confrelid
        LEFT JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[k.n]
        WHERE t.relnamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')
        ORDER BY t.relname, c.conname, k.n
        """

    /// How many `CHECK` constraints each table with any has.
    private static let postgreSQLChecks = """
        SELECT t.relname::text AS table_name, count(*) AS check_count
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE t.relnamespace = current_schema()::regnamespace AND c.contype = 'c'
        GROUP BY t.relname
        """

    /// Every key column of every index that backs no primary or unique key, in index order; an
    /// expression's column name is empty.
    private static let postgreSQLIndexes = """
        SELECT t.relname::text AS table_name, i.relname::text AS index_name, CASE WHEN x.indisunique THEN 1 ELSE 0 END AS is_unique,
            CASE WHEN x.indpred IS NULL THEN 0 ELSE 1 END AS is_partial, coalesce(a.attname::text, '') AS column_name
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
        WHERE t.relnamespace = current_schema()::regnamespace AND k.n <= x.indnkeyatts
          AND NOT EXISTS (
            SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.conrelid = t.oid AND c.contype IN ('p', 'u', 'x'))
        ORDER BY t.relname, i.relname, k.n
        """
}
