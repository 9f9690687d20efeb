/// The SQL dialect a ``Database`` speaks: what the few statements whose text differs between the
/// stores (``DialectSQL``, ``SchemaCatalog``) switch on (docs/architecture.md, "Portable SQL").
/// The connection's own ``Database/Dialect``, under the name the dialect functions use.
public typealias SQLDialect = Database.Dialect
