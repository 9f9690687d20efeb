/// The SQL dialect a ``Database`` speaks: what the few statements whose text differs between the
/// stores (``DialectSQL``, ``SchemaCatalog``) switch on (docs/architecture.md, "Portable SQL").
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite, the embedded default.
    case sqlite
    /// PostgreSQL, the store of deployments with several instances.
    case postgresql
}

extension Database {
    /// The dialect of this connection's database.
    public var dialect: SQLDialect {
        .sqlite
    }
}
