import GraphQL
import HearthHTTP
import Support

/// The GraphQL pipeline behind the HTTP endpoint, independent of HTTP framing: resolves
/// Automatic Persisted Queries, enforces the limits, parses and validates through the document
/// cache, executes, masks unexpected errors and counts the outcome.
///
/// Parsing, the specified validation rules and the depth and alias limits depend only on the
/// document, so their result is cached (with the chosen operation's execution plans) by
/// document text and operation name. The complexity limit depends on variables (`first: $n`)
/// and runs on every request; operations selecting only introspection fields are bounded by
/// `ValidationRule.maxIntrospectionDepth` instead.
public final class GraphQLService: Sendable {
    /// The executor, built with the limits' introspection switch.
    public let executor: Executor
    /// The limits in force.
    public let limits: GraphQLLimits
    /// Validated documents with their prepared operation, by text and operation name.
    public let documentCache: LRUCache<DocumentKey, PreparedOperation>
    /// Automatic Persisted Queries: document text by SHA-256 hex digest.
    public let persistedQueries: LRUCache<String, String>
    /// Operations by kind and outcome.
    public let metrics = OperationMetrics()
    private let masking: ErrorMasking
    private let documentRules: [ValidationRule]
    private let validationOptions: ValidationOptions
    private let parseOptions: ParseOptions

    /// What identifies a cached document: its text and the operation chosen from it.
    public struct DocumentKey: Hashable, Sendable {
        /// The document text.
        public var text: String
        /// The requested operation name.
        public var operationName: String?
    }

    /// Creates the pipeline.
    /// - Parameter logger: Receives the details of masked errors.
    /// - Throws: `SchemaError` when `resolvers` name types or fields the schema lacks.
    public init(resolvers: Resolvers, limits: GraphQLLimits = GraphQLLimits(), logger: Logger) throws(SchemaError) {
        executor = try Executor(resolvers: resolvers, options: ExecutorOptions(introspection: limits.introspection))
        self.limits = limits
        documentCache = LRUCache(capacity: limits.documentCacheEntries)
        persistedQueries = LRUCache(capacity: limits.persistedQueryEntries)
        masking = ErrorMasking(logger: logger)
        documentRules = specifiedRules + [.maxDepth(limits.maxDepth), .maxAliases(limits.maxAliases), .maxIntrospectionDepth]
        validationOptions = ValidationOptions(suggestions: limits.introspection)
        parseOptions = ParseOptions(maxTokens: limits.maxTokens)
    }

    /// Runs one request.
    /// - Parameters:
    ///   - allowsMutations: `false` for GET requests: a mutation is then refused with 405.
    ///   - requestID: Named in masked errors and in the log.
    ///   - context: Passed to every resolver.
    public func execute(
        _ request: GraphQLRequest, allowsMutations: Bool, requestID: String, context: any Sendable, rootValue: Any = ()
    ) async -> GraphQLOutcome {
        let text: String
        let persistedHash: String?
        switch persistedQuery(request) {
        case .proceed(let resolved): (text, persistedHash) = resolved
        case .stop(let outcome):
            metrics.record(.unknown, .rejected)
            return outcome
        }
        let prepared: PreparedOperation
        switch prepare(text, operationName: request.operationName) {
        case .proceed(let operation): prepared = operation
        case .stop(let outcome):
            metrics.record(.unknown, .rejected)
            return outcome
        }
        if let persistedHash { persistedQueries.insert(text, for: persistedHash) }
        let kind = OperationMetrics.Kind(rawValue: prepared.operation.operation.rawValue) ?? .unknown
        if let refusal = refusal(of: prepared, allowsMutations: allowsMutations) {
            metrics.record(kind, .rejected)
            return refusal
        }
        let complexityErrors = selectsOnlyIntrospection(prepared.operation) ? [] : validate(
            schema: executor.schema, document: prepared.document,
            rules: [.maxComplexity(limits.complexity, variables: request.variables)], options: validationOptions)
        if !complexityErrors.isEmpty {
            metrics.record(kind, .rejected)
            return .requestError(.validation, complexityErrors, code: ErrorCode.validationFailed)
        }
        var result = await executor.execute(prepared, variables: request.variables, context: context, rootValue: rootValue)
        guard result.hasData else {
            metrics.record(kind, .rejected)
            return .requestError(.variables, result.errors, code: ErrorCode.badUserInput)
        }
        masking.mask(&result, requestID: requestID)
        metrics.record(kind, result.errors.isEmpty ? .success : .fieldErrors)
        return GraphQLOutcome(result: result, status: .executed)
    }

    /// The document text and, when it must be stored once valid, its APQ hash.
    private func persistedQuery(_ request: GraphQLRequest) -> Step<(String, String?)> {
        guard let extension_ = request.extensions["persistedQuery"] else {
            // `GraphQLRequest` guarantees a query when there is no persistedQuery extension.
            return .proceed((request.query ?? "", nil))
        }
        guard case .int(1)? = extension_["version"], case .string(let hash)? = extension_["sha256Hash"] else {
            return .stop(.rejected(RequestRejection(
                message: "extensions.persistedQuery must be { version: 1, sha256Hash: \"<64 hex digits>\" }.")))
        }
        guard limits.persistedQueryEntries > 0 else {
            return .stop(.requestError(.persistedQueryNotSupported, [GraphQLError(message: "PersistedQueryNotSupported")],
                                          code: ErrorCode.persistedQueryNotSupported))
        }
        let normalizedHash = hash.lowercased()
        guard let query = request.query else {
            guard let stored = persistedQueries.value(for: normalizedHash) else {
                return .stop(.requestError(.persistedQueryNotFound, [GraphQLError(message: "PersistedQueryNotFound")],
                                              code: ErrorCode.persistedQueryNotFound))
            }
            return .proceed((stored, nil))
        }
        guard SHA256.hexDigest(query) == normalizedHash else {
            return .stop(.rejected(RequestRejection(
                code: ErrorCode.persistedQueryHashMismatch, message: "The query's SHA-256 hash does not match extensions.persistedQuery.sha256Hash.")))
        }
        return .proceed((query, normalizedHash))
    }

    /// Parses, validates and prepares `text`, through the document cache.
    private func prepare(_ text: String, operationName: String?) -> Step<PreparedOperation> {
        let key = DocumentKey(text: text, operationName: operationName)
        if let cached = documentCache.value(for: key) { return .proceed(cached) }
        let size = text.utf8.count
        guard size <= limits.maxDocumentBytes else {
            return .stop(.requestError(.parse, [GraphQLError(
                message: "The document is \(size) bytes, more than the maximum of \(limits.maxDocumentBytes).")],
                code: ErrorCode.parseFailed))
        }
        let document: Document
        do {
            document = try Parser.parse(Source(body: text, name: "GraphQL request"), options: parseOptions)
        } catch {
            return .stop(.requestError(.parse, [error], code: ErrorCode.parseFailed))
        }
        let errors = validate(schema: executor.schema, document: document, rules: documentRules, options: validationOptions)
        guard errors.isEmpty else {
            return .stop(.requestError(.validation, errors, code: ErrorCode.validationFailed))
        }
        let prepared: PreparedOperation
        do {
            prepared = try executor.prepare(document, operationName: operationName)
        } catch {
            return .stop(.requestError(.operation, [error], code: ErrorCode.badRequest))
        }
        documentCache.insert(prepared, for: key)
        return .proceed(prepared)
    }

    private func refusal(of prepared: PreparedOperation, allowsMutations: Bool) -> GraphQLOutcome? {
        switch prepared.operation.operation {
        case .mutation where !allowsMutations:
            .rejected(RequestRejection(
                status: .methodNotAllowed, message: "Mutations cannot be sent with GET; use POST.", headers: ["Allow": "POST"]))
        case .subscription:
            .requestError(.operation, [GraphQLError(
                message: "Subscriptions are not served over HTTP; use a WebSocket with graphql-transport-ws.",
                locations: [prepared.operation.location.sourceLocation])], code: ErrorCode.badRequest)
        default:
            nil
        }
    }
}

/// A stage of the pipeline: its product, or the outcome that ends the request.
private enum Step<Product> {
    case proceed(Product)
    case stop(GraphQLOutcome)
}

/// What `GraphQLService.execute` produced: the response body and how the request ended, from
/// which the transport derives the HTTP status.
public struct GraphQLOutcome: Sendable {
    /// Why a request was not executed although it was well-formed (a GraphQL request error).
    public enum RequestErrorKind: Sendable, Hashable {
        /// The document did not parse, or exceeded the size or token limit.
        case parse
        /// The document failed validation or a depth, alias or complexity limit.
        case validation
        /// GetOperation failed (unknown or ambiguous operation name), or a subscription was sent.
        case operation
        /// Variable values could not be coerced.
        case variables
        /// An APQ hash the server does not know.
        case persistedQueryNotFound
        /// APQ is switched off.
        case persistedQueryNotSupported
    }

    /// How the request ended.
    public enum Status: Sendable {
        /// The operation ran; `result` has `data` (possibly with field errors).
        case executed
        /// A GraphQL request error: `result` has `errors` and no `data`.
        case requestError(RequestErrorKind)
        /// Not a well-formed request; answered with the rejection's status in any media type.
        case rejected(RequestRejection)
    }

    /// The GraphQL response.
    public var result: ExecutionResult
    /// How the request ended.
    public var status: Status

    /// A request error; every error without an `extensions.code` gets `code`.
    static func requestError(_ kind: RequestErrorKind, _ errors: [GraphQLError], code: String) -> GraphQLOutcome {
        let coded = errors.map { error in
            var error = error
            if error.extensions["code"] == nil { error.extensions["code"] = .string(code) }
            return error
        }
        return GraphQLOutcome(result: ExecutionResult(data: nil, errors: coded), status: .requestError(kind))
    }

    /// A rejected request; its error carries the rejection's code.
    static func rejected(_ rejection: RequestRejection) -> GraphQLOutcome {
        GraphQLOutcome(
            result: ExecutionResult(data: nil, errors: [GraphQLError(message: rejection.message, extensions: ["code": .string(rejection.code)])]),
            status: .rejected(rejection))
    }
}
