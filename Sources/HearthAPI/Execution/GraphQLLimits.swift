import GraphQL

/// The production limits and switches of a GraphQL endpoint, with defaults a public server
/// should use. Read once at start (flags and environment in `hearth serve`) and passed down.
///
/// Every limit is checked before execution and answered with a request error that names it:
/// document size and token count as `GRAPHQL_PARSE_FAILED`, depth, aliases and complexity as
/// `GRAPHQL_VALIDATION_FAILED`.
public struct GraphQLLimits: Sendable {
    /// The largest document, in UTF-8 bytes (default 64 KiB: well above any hand-written
    /// operation or the standard introspection query, about 2 KiB).
    public var maxDocumentBytes: Int
    /// The most lexical tokens a document may have (default 15,000; graphql-js `maxTokens`).
    public var maxTokens: Int
    /// The deepest field nesting of an operation, fragments counted where spread (default 15,
    /// which admits the standard introspection query of graphql-js and Apollo).
    public var maxDepth: Int
    /// The most aliases an operation may use, fragments counted each time spread (default 30).
    public var maxAliases: Int
    /// How operations are priced and the largest cost admitted (default 5,000).
    public var complexity: ComplexityOptions
    /// Whether `__schema` and `__type` may be queried. Off also removes "Did you mean …?"
    /// suggestions from validation messages, which would reveal the schema. On by default:
    /// Hearth's schema is public (it is `schema.graphql` in the repository) and the developer
    /// CLI and GraphQL IDEs rely on it.
    public var introspection: Bool
    /// How many parsed and validated documents are kept (least recently used evicted first);
    /// 0 disables the cache.
    public var documentCacheEntries: Int
    /// How many Automatic Persisted Queries are kept (least recently used evicted first);
    /// 0 disables the protocol (hash-only requests then get `PERSISTED_QUERY_NOT_SUPPORTED`).
    public var persistedQueryEntries: Int

    /// Creates limits; the defaults suit a public server.
    public init(
        maxDocumentBytes: Int = 64 * 1024, maxTokens: Int = 15_000,
        maxDepth: Int = ValidationRule.defaultMaxDepth, maxAliases: Int = ValidationRule.defaultMaxAliases,
        complexity: ComplexityOptions = ComplexityOptions(), introspection: Bool = true,
        documentCacheEntries: Int = 1_000, persistedQueryEntries: Int = 10_000
    ) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.complexity = complexity
        self.introspection = introspection
        self.documentCacheEntries = documentCacheEntries
        self.persistedQueryEntries = persistedQueryEntries
    }
}
