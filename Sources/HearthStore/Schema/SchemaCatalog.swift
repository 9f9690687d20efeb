/// A database's logical schema, read from the database itself and normalised so that SQLite's and
/// PostgreSQL's can be compared (docs/architecture.md, "Portable SQL": every migration comes in both
/// dialects and they must reach the same schema).
///
/// What is compared: the tables; their columns in order, each with a normalised type, whether it
/// may be `NULL`, whether it has a default and whether the database generates it (SQLite's
/// `INTEGER PRIMARY KEY`, PostgreSQL's identity columns); the primary key; the unique constraints;
/// the foreign keys with their targets and `ON DELETE` actions; and the indexes created by name,
/// with their columns (an expression reads `(expression)`), uniqueness and whether they are partial.
/// `CHECK` constraints are counted per table; not compared: their text, nor that of defaults and
/// partial indexes' conditions, which each dialect writes in its own syntax. The migrator's own table (`schema_migrations`) is left
/// out, as are SQLite's internal ones.
///
/// Normalisation: integers (`INTEGER`, `bigint`) read `integer`, text `text`, floating point (`REAL`,
/// `double precision`) `real`, bytes (`BLOB`, `bytea`) `blob`; a PostgreSQL text column whose
/// collation is not `C` reads `text collate <name>` (text compares by code point in both stores).
/// Primary key columns are `NOT NULL` (PostgreSQL implies it; SQLite's legacy leniency for a
/// non-integer key without `NOT NULL` is never relied on: every row gets an id).
public struct SchemaCatalog: Sendable, Hashable {
    /// The tables by name.
    public var tables: [String: Table]

    /// Makes a catalog of `tables`.
    public init(tables: [Table]) {
        self.tables = Dictionary(tables.map { ($0.name, $0) }) { first, _ in first }
    }

    /// One table.
    public struct Table: Sendable, Hashable {
        /// The table's name.
        public var name: String
        /// The columns, in order.
        public var columns: [Column]
        /// The primary key's columns, in key order; empty when there is none.
        public var primaryKey: [String]
        /// The column lists of the unique constraints (not the unique indexes created by name).
        public var uniqueKeys: Set<[String]>
        /// The foreign keys.
        public var foreignKeys: Set<ForeignKey>
        /// The indexes created by name (not those backing a primary key or unique constraint).
        public var indexes: [String: Index]
        /// How many `CHECK` constraints the table has (of a column or of the table).
        public var checkCount: Int

        /// Makes a table.
        public init(
            name: String, columns: [Column], primaryKey: [String], uniqueKeys: Set<[String]>, foreignKeys: Set<ForeignKey>,
            indexes: [Index], checkCount: Int
        ) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.uniqueKeys = uniqueKeys
            self.foreignKeys = foreignKeys
            self.indexes = Dictionary(indexes.map { ($0.name, $0) }) { first, _ in first }
            self.checkCount = checkCount
        }
    }

    /// One column.
    public struct Column: Sendable, Hashable, CustomStringConvertible {
        /// The column's name.
        public var name: String
        /// The normalised type (see ``SchemaCatalog``).
        public var type: String
        /// Whether `NULL` is refused.
        public var notNull: Bool
        /// Whether the column has a default value.
        public var hasDefault: Bool
        /// Whether the database generates the value of a row that gives none (a key).
        public var isGeneratedKey: Bool

        /// Makes a column.
        public init(name: String, type: String, notNull: Bool, hasDefault: Bool, isGeneratedKey: Bool) {
            self.name = name
            self.type = type
            self.notNull = notNull
            self.hasDefault = hasDefault
            self.isGeneratedKey = isGeneratedKey
        }

        /// `name type [NOT NULL] [DEFAULT] [GENERATED KEY]`.
        public var description: String {
            [name, type, notNull ? "NOT NULL" : nil, hasDefault ? "DEFAULT" : nil, isGeneratedKey ? "GENERATED KEY" : nil]
                .compactMap { $0 }.joined(separator: " ")
        }
    }

    /// One foreign key.
    public struct ForeignKey: Sendable, Hashable, CustomStringConvertible {
        /// The referring columns, in order.
        public var columns: [String]
        /// The referenced table.
        public var table: String
        /// The referenced columns, in the order of ``columns``.
        public var referencedColumns: [String]
        /// The `ON DELETE` action: `CASCADE`, `SET NULL`, `SET DEFAULT`, `RESTRICT` or `NO ACTION`.
        public var onDelete: String

        /// Makes a foreign key.
        public init(columns: [String], table: String, referencedColumns: [String], onDelete: String) {
            self.columns = columns
            self.table = table
            self.referencedColumns = referencedColumns
            self.onDelete = onDelete
        }

        /// `(columns) REFERENCES table (columns) ON DELETE action`.
        public var description: String {
            "(\(columns.joined(separator: ", "))) REFERENCES \(table) (\(referencedColumns.joined(separator: ", "))) ON DELETE \(onDelete)"
        }
    }

    /// One index created by name.
    public struct Index: Sendable, Hashable, CustomStringConvertible {
        /// The index's name.
        public var name: String
        /// The indexed columns in order; an expression reads ``expression``.
        public var columns: [String]
        /// Whether it is a unique index.
        public var isUnique: Bool
        /// Whether it has a `WHERE` condition.
        public var isPartial: Bool

        /// What an indexed expression reads as in ``columns``.
        public static let expression = "(expression)"

        /// Makes an index.
        public init(name: String, columns: [String], isUnique: Bool, isPartial: Bool) {
            self.name = name
            self.columns = columns
            self.isUnique = isUnique
            self.isPartial = isPartial
        }

        /// `[UNIQUE] (columns) [WHERE …]`.
        public var description: String {
            (isUnique ? "UNIQUE " : "") + "(\(columns.joined(separator: ", ")))" + (isPartial ? " WHERE …" : "")
        }
    }
}
