import GraphQL
import HearthHTTP

/// The production limits and switches of a GraphQL endpoint, with defaults a public server
/// should use. Read once at start (flags and environment in `hearth serve`) and passed down.
///
/// Every limit is checked before execution and answered with a request error that names it:
/// document size and token count as `GRAPHQL_PARSE_FAILED`; depth, aliases, selection-set
/// width, field comparisons and complexity as `GRAPHQL_VALIDATION_FAILED`.
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
    /// The most fields one selection set may select at one level, fragments counted where
    /// spread (default 200; see `ValidationRule.maxSelectionSetFields`).
    public var maxSelectionSetFields: Int
    /// The most comparisons the field-merging rule may make for one document (default 100,000;
    /// see `ValidationOptions.maxFieldComparisons`).
    public var maxFieldComparisons: Int
    /// Documents up to this size (UTF-8 bytes) are parsed and validated on the event loop when
    /// the document cache misses; larger ones on `validationThreads` (default 1 KiB: at most a
    /// few hundred microseconds of work on the loop for the costliest documents per byte, many
    /// fragments spread together, as measured by tools/attack; larger application documents and
    /// the introspection query go to the pool the first time they are seen).
    public var inlineDocumentBytes: Int
    /// The threads that parse and validate documents larger than `inlineDocumentBytes` (default
    /// half the CPU cores, at least 1). 64 more documents may wait for one; beyond that a request
    /// is refused with 503 and `RATE_LIMITED`.
    public var validationThreads: Int
    /// How many parsed and validated documents are kept (least recently used evicted first);
    /// 0 disables the cache.
    public var documentCacheEntries: Int
    /// The most memory the document cache may hold, estimated per document
    /// (`GraphQLService.retainedBytes(of:)`; default 32 MiB); 0 disables the cache.
    public var documentCacheBytes: Int
    /// How many Automatic Persisted Queries are kept (least recently used evicted first);
    /// 0 disables the protocol (hash-only requests then get `PERSISTED_QUERY_NOT_SUPPORTED`).
    public var persistedQueryEntries: Int
    /// The most memory the persisted queries may hold: their text and hash plus a fixed
    /// overhead each (default 16 MiB); 0 disables the protocol like `persistedQueryEntries`.
    public var persistedQueryBytes: Int
    /// The most entries one `syncBatch` may carry (default 100); a larger batch is refused
    /// whole with `BAD_USER_INPUT`, before any entry runs. Each entry is checked against the
    /// limits above as a request of its own.
    public var maxSyncBatchEntries: Int = 100

    /// Creates limits; the defaults suit a public server.
    public init(
        maxDocumentBytes: Int = 64 * 1024, maxTokens: Int = 15_000,
        maxDepth: Int = ValidationRule.defaultMaxDepth, maxAliases: Int = ValidationRule.defaultMaxAliases,
        complexity: ComplexityOptions = ComplexityOptions(), introspection: Bool = true,
        maxSelectionSetFields: Int = ValidationRule.defaultMaxSelectionSetFields,
        maxFieldComparisons: Int = ValidationOptions.defaultMaxFieldComparisons,
        inlineDocumentBytes: Int = 1024, validationThreads: Int = GraphQLLimits.defaultValidationThreads,
        documentCacheEntries: Int = 1_000, documentCacheBytes: Int = 32 << 20,
        persistedQueryEntries: Int = 10_000, persistedQueryBytes: Int = 16 << 20
    ) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.complexity = complexity
        self.introspection = introspection
        self.maxSelectionSetFields = maxSelectionSetFields
        self.maxFieldComparisons = maxFieldComparisons
        self.inlineDocumentBytes = inlineDocumentBytes
        self.validationThreads = validationThreads
        self.documentCacheEntries = documentCacheEntries
        self.documentCacheBytes = documentCacheBytes
        self.persistedQueryEntries = persistedQueryEntries
        self.persistedQueryBytes = persistedQueryBytes
    }

    /// The default of `validationThreads`: half the CPU cores, at least 1, so that event loops
    /// keep cores to answer other clients while large documents are validated.
    public static var defaultValidationThreads: Int {
        max(1, HTTPServerConfiguration.onlineProcessorCount / 2)
    }

    /// Whether Automatic Persisted Queries are served.
    public var persistedQueriesEnabled: Bool { persistedQueryEntries > 0 && persistedQueryBytes > 0 }
}
