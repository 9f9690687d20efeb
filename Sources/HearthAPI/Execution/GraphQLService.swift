import GraphQL
import HearthHTTP
import Support

/// The GraphQL pipeline behind the HTTP endpoint, independent of HTTP framing: resolves
/// Automatic Persisted Queries, enforces the limits, parses and validates through the document
/// cache, executes, masks unexpected errors and counts the outcome.
///
/// Parsing, the specified validation rules and the depth, alias and width limits depend only on
/// the document (the limits are checked first: a document over one is refused without the work
/// of the specified rules), so their result is cached (with the chosen operation's execution plans) by
/// document text and operation name. The complexity limit depends on variables (`first: $n`)
/// and runs on every request; operations selecting only introspection fields are bounded by
/// `ValidationRule.maxIntrospectionDepth` instead.
///
/// Where the work runs: a request is served on the event loop that read it, and so is its
/// execution (bounded by the complexity limit) and, on a cache hit, everything else. Parsing
/// and validating a document the cache does not hold is the one step whose cost a client
/// chooses freely up to the size limits, so a document larger than
/// `GraphQLLimits.inlineDocumentBytes` is parsed and validated on a worker pool of
/// `validationThreads` threads instead; the event loop meanwhile serves other connections, the
/// request then continues on Swift's cooperative threads, and its response is handed back to
/// the connection's loop (`HTTPResponder`). Smaller documents (1 KiB by default) stay inline,
/// where handing them to another thread would cost about as much as the work: at that size the
/// costliest documents per byte, many fragments spread together, take a millisecond or two
/// (tools/attack measures it). We chose this over a time budget inside validation, which would
/// refuse valid documents whenever the machine is merely busy, and over offloading every miss,
/// which would queue a client whose small documents change with every request behind the
/// pool. The work itself is bounded too: validation is near-linear in the document (see
/// `ValidationRule.overlappingFieldsCanBeMerged`), with a comparison budget for what is not,
/// and a full pool refuses at once (503, `RATE_LIMITED`) rather than queueing without end.
public final class GraphQLService: Sendable {
    /// The executor, built with the limits' introspection switch.
    public let executor: Executor
    /// The limits in force.
    public let limits: GraphQLLimits
    /// Validated documents with their prepared operation, by text and operation name.
    public let documentCache: LRUCache<DocumentKey, CachedOperation>
    /// Automatic Persisted Queries: document text by SHA-256 hex digest.
    public let persistedQueries: LRUCache<String, String>
    /// Operations by kind and outcome.
    public let metrics = OperationMetrics()
    private let masking: ErrorMasking
    /// The limits that depend only on the document, checked before the specified rules: a
    /// document over a limit is refused without the work of validating it.
    private let limitRules: [ValidationRule]
    private let validationOptions: ValidationOptions
    private let parseOptions: ParseOptions
    /// Parses and validates documents larger than `limits.inlineDocumentBytes`.
    private let validation: WorkerPool

    /// How many large documents may wait for a validation thread before requests are refused.
    public static let validationQueueLimit = 64

    /// A validated operation as the document cache keeps it: prepared for execution, and priced
    /// once when its cost does not depend on the request's variables.
    public struct CachedOperation: Sendable {
        /// The operation, ready to execute.
        public let prepared: PreparedOperation
        /// How the complexity limit applies to it.
        public let pricing: Pricing

        /// How the complexity limit applies to a cached operation.
        public enum Pricing: Sendable {
            /// It selects only introspection fields, bounded by
            /// `ValidationRule.maxIntrospectionDepth` instead.
            case introspection
            /// Its cost, the same for every request.
            case fixed(Int)
            /// A list size is given by a variable: priced per request.
            case perRequest
        }
    }

    /// What identifies a cached document: its text and the operation chosen from it. Texts are
    /// equal when their bytes are (not by Unicode canonical equivalence, which would cost a
    /// normalisation) and hashed with ``KeyedHash``: a document runs to hundreds or thousands of
    /// bytes, is sent by the client, and is looked up on every request.
    public struct DocumentKey: Hashable, Sendable {
        /// The document text.
        public var text: String
        /// The requested operation name.
        public var operationName: String?

        public static func == (lhs: DocumentKey, rhs: DocumentKey) -> Bool {
            lhs.operationName == rhs.operationName && lhs.text.hasSameUTF8(as: rhs.text)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(KeyedHash.hash(text))
            hasher.combine(operationName)
        }
    }

    /// Creates the pipeline.
    /// - Parameters:
    ///   - logger: Receives the details of masked errors.
    ///   - validationPool: Where documents larger than `limits.inlineDocumentBytes` are parsed
    ///     and validated; by default a pool of `limits.validationThreads` threads with room for
    ///     `validationQueueLimit` waiting documents.
    /// - Throws: `SchemaError` when `resolvers` name types or fields the schema lacks.
    public init(
        resolvers: Resolvers, limits: GraphQLLimits = GraphQLLimits(), logger: Logger, validationPool: WorkerPool? = nil
    ) throws(SchemaError) {
        executor = try Executor(resolvers: resolvers, options: ExecutorOptions(introspection: limits.introspection))
        self.limits = limits
        documentCache = LRUCache(
            capacity: limits.documentCacheBytes > 0 ? limits.documentCacheEntries : 0, maxCost: limits.documentCacheBytes)
        persistedQueries = LRUCache(
            capacity: limits.persistedQueriesEnabled ? limits.persistedQueryEntries : 0, maxCost: limits.persistedQueryBytes)
        masking = ErrorMasking(logger: logger)
        limitRules = [
            .maxDepth(limits.maxDepth), .maxAliases(limits.maxAliases), .maxSelectionSetFields(limits.maxSelectionSetFields),
            .maxIntrospectionDepth,
        ]
        validationOptions = ValidationOptions(suggestions: limits.introspection, maxFieldComparisons: limits.maxFieldComparisons)
        parseOptions = ParseOptions(maxTokens: limits.maxTokens)
        validation = validationPool ?? WorkerPool(
            label: "graphql-validate", concurrency: max(1, limits.validationThreads), queueLimit: Self.validationQueueLimit)
    }

    /// Runs one request.
    /// - Parameters:
    ///   - allowsMutations: `false` for GET requests: a mutation is then refused with 405.
    ///   - requestID: Named in masked errors and in the log.
    ///   - context: Passed to every resolver.
    public func execute(
        _ request: GraphQLRequest, allowsMutations: Bool, requestID: String, context: any Sendable, rootValue: Any = ()
    ) async -> GraphQLOutcome {
        switch await admit(request, allowsMutations: allowsMutations, allowsSubscriptions: false) {
        case .stop(let outcome): return outcome
        case .proceed(let (prepared, kind)):
            return await run(prepared, kind: kind, request, requestID: requestID, context: context, rootValue: rootValue)
        }
    }

    /// Runs one request of any operation type, as a WebSocket transport needs: a query or a
    /// mutation gives one outcome, a subscription a stream of responses, through the same
    /// persisted queries, limits, document cache, masking and metrics as `execute`.
    /// - Parameters:
    ///   - requestID: Named in masked errors and in the log.
    ///   - context: Passed to every resolver and to the subscription's source stream resolver.
    public func operate(
        _ request: GraphQLRequest, requestID: String, context: any Sendable, rootValue: Any = ()
    ) async -> GraphQLOperation {
        switch await admit(request, allowsMutations: true, allowsSubscriptions: true) {
        case .stop(let outcome): return .single(outcome)
        case .proceed(let (prepared, kind)) where kind == .subscription:
            switch await executor.subscribe(prepared, variables: request.variables, context: context, rootValue: rootValue) {
            case .stream(let stream):
                metrics.record(kind, .success)
                return .stream(MaskedResponseStream(base: stream, masking: masking, requestID: requestID))
            case .failure(var result):
                metrics.record(kind, .rejected)
                masking.mask(&result, requestID: requestID)
                return .single(.requestError(.variables, result.errors, code: ErrorCode.badUserInput))
            }
        case .proceed(let (prepared, kind)):
            return .single(await run(prepared, kind: kind, request, requestID: requestID, context: context, rootValue: rootValue))
        }
    }

    /// Runs one entry of a `syncBatch` (``SyncBatchRunner``) as `execute` runs a request: the same
    /// persisted queries, limits, document cache, masking and metrics. Only a mutation runs; a
    /// query or subscription is answered with a request error.
    public func executeBatchEntry(_ request: GraphQLRequest, requestID: String, context: any Sendable) async -> ExecutionResult {
        switch await admit(request, allowsMutations: true, allowsSubscriptions: false) {
        case .stop(let outcome):
            return outcome.result
        case .proceed(let (prepared, kind)) where kind != .mutation:
            metrics.record(kind, .rejected)
            return GraphQLOutcome.requestError(.operation, [GraphQLError(
                message: "A syncBatch entry is one mutation: queries and subscriptions are not queued.",
                locations: [prepared.operation.location.sourceLocation])], code: ErrorCode.badRequest).result
        case .proceed(let (prepared, kind)):
            return await run(prepared, kind: kind, request, requestID: requestID, context: context, rootValue: ()).result
        }
    }

    /// The errors to report for `error`, thrown by a subscription's source stream after it
    /// started: masked unless the resolver meant it to be shown.
    public func errors(for error: any Error, requestID: String) -> [GraphQLError] {
        let reported = (error as? GraphQLError) ?? (error as? any GraphQLErrorConvertible)?.graphQLError
            ?? GraphQLError(message: String(describing: error), underlyingError: error)
        var result = ExecutionResult(data: nil, errors: [reported])
        masking.mask(&result, requestID: requestID)
        return result.errors
    }

    /// The checks before execution: persisted query, parse, validation, operation type, complexity.
    private func admit(
        _ request: GraphQLRequest, allowsMutations: Bool, allowsSubscriptions: Bool
    ) async -> Step<(PreparedOperation, OperationMetrics.Kind)> {
        let text: String
        let persistedHash: String?
        switch persistedQuery(request) {
        case .proceed(let resolved): (text, persistedHash) = resolved
        case .stop(let outcome):
            metrics.record(.unknown, .rejected)
            return .stop(outcome)
        }
        let cached: CachedOperation
        switch await prepare(text, operationName: request.operationName) {
        case .proceed(let operation): cached = operation
        case .stop(let outcome):
            metrics.record(.unknown, .rejected)
            return .stop(outcome)
        }
        let prepared = cached.prepared
        if let persistedHash {
            persistedQueries.insert(text, for: persistedHash, cost: Self.retainedBytes(ofPersistedQuery: text, hash: persistedHash))
        }
        let kind = OperationMetrics.Kind(rawValue: prepared.operation.operation.rawValue) ?? .unknown
        if let refusal = refusal(of: prepared, allowsMutations: allowsMutations, allowsSubscriptions: allowsSubscriptions) {
            metrics.record(kind, .rejected)
            return .stop(refusal)
        }
        let cost: Int
        switch cached.pricing {
        case .introspection: cost = 0
        case .fixed(let fixed): cost = fixed
        case .perRequest: cost = limits.complexity.cost(of: prepared, schema: executor.schema, variables: request.variables)
        }
        if cost > limits.complexity.maximum {
            metrics.record(kind, .rejected)
            let error = GraphQLError(
                message: limits.complexity.refusal(of: prepared.operation, cost: cost),
                locations: [prepared.operation.location.sourceLocation])
            return .stop(.requestError(.validation, [error], code: ErrorCode.validationFailed))
        }
        return .proceed((prepared, kind))
    }

    /// Executes an admitted query or mutation.
    private func run(
        _ prepared: PreparedOperation, kind: OperationMetrics.Kind, _ request: GraphQLRequest, requestID: String,
        context: any Sendable, rootValue: Any
    ) async -> GraphQLOutcome {
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
        guard limits.persistedQueriesEnabled else {
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

    /// Parses, validates and prepares `text`, through the document cache: inline for small
    /// documents, on the validation pool for large ones (see the type's description).
    private func prepare(_ text: String, operationName: String?) async -> Step<CachedOperation> {
        let key = DocumentKey(text: text, operationName: operationName)
        if let cached = documentCache.value(for: key) { return .proceed(cached) }
        let size = text.utf8.count
        guard size <= limits.maxDocumentBytes else {
            return .stop(.requestError(.parse, [GraphQLError(
                message: "The document is \(size) bytes, more than the maximum of \(limits.maxDocumentBytes).")],
                code: ErrorCode.parseFailed))
        }
        guard size > limits.inlineDocumentBytes else { return compile(key) }
        do {
            return try await validation.run { [self] in compile(key) }
        } catch {
            return .stop(.busy(retryAfterSeconds: 1, message: "The server is busy validating other large documents; retry shortly."))
        }
    }

    /// Parses, validates and prepares a document the cache does not hold, and caches it.
    private func compile(_ key: DocumentKey) -> Step<CachedOperation> {
        let text = key.text, operationName = key.operationName
        let document: Document
        do {
            document = try Parser.parse(Source(body: text, name: "GraphQL request"), options: parseOptions)
        } catch {
            return .stop(.requestError(.parse, [error], code: ErrorCode.parseFailed))
        }
        var errors = validate(schema: executor.schema, document: document, rules: limitRules, options: validationOptions)
        if errors.isEmpty {
            errors = validate(schema: executor.schema, document: document, rules: specifiedRules, options: validationOptions)
        }
        guard errors.isEmpty else {
            return .stop(.requestError(.validation, errors, code: ErrorCode.validationFailed))
        }
        let prepared: PreparedOperation
        do {
            prepared = try executor.prepare(document, operationName: operationName)
        } catch {
            return .stop(.requestError(.operation, [error], code: ErrorCode.badRequest))
        }
        let pricing: CachedOperation.Pricing = if selectsOnlyIntrospection(prepared.operation) {
            .introspection
        } else {
            limits.complexity.fixedCost(of: prepared, schema: executor.schema).map { .fixed($0) } ?? .perRequest
        }
        let cached = CachedOperation(prepared: prepared, pricing: pricing)
        documentCache.insert(cached, for: key, cost: Self.retainedBytes(ofDocument: document, text: text))
        return .proceed(cached)
    }

    private func refusal(of prepared: PreparedOperation, allowsMutations: Bool, allowsSubscriptions: Bool) -> GraphQLOutcome? {
        switch prepared.operation.operation {
        case .mutation where !allowsMutations:
            .rejected(RequestRejection(
                status: .methodNotAllowed, message: "Mutations cannot be sent with GET; use POST.", headers: ["Allow": "POST"]))
        case .subscription where !allowsSubscriptions:
            .requestError(.operation, [GraphQLError(
                message: "Subscriptions are not served over HTTP; use a WebSocket with graphql-transport-ws.",
                locations: [prepared.operation.location.sourceLocation])], code: ErrorCode.badRequest)
        default:
            nil
        }
    }
}

/// What `GraphQLService.operate` produced.
public enum GraphQLOperation: Sendable {
    /// A query or mutation's outcome, or the request error that stopped any operation.
    case single(GraphQLOutcome)
    /// A subscription's responses, one per source event.
    case stream(MaskedResponseStream)
}

/// A subscription's response stream with unexpected resolver errors masked in each response.
/// Stopping it is cancelling the consuming task (see `ResponseStream`).
public struct MaskedResponseStream: AsyncSequence, Sendable {
    /// Each element is one response.
    public typealias Element = ExecutionResult

    let base: ResponseStream
    let masking: ErrorMasking
    let requestID: String

    /// The name of the subscription's root field.
    public var fieldName: String { base.fieldName }
    /// The root field's coerced arguments.
    public var arguments: Arguments { base.arguments }

    /// Iterates over the masked responses.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: ResponseStream.AsyncIterator
        let masking: ErrorMasking
        let requestID: String

        /// The next response; `nil` when the source stream finished.
        /// - Throws: The source stream's error.
        public mutating func next() async throws -> ExecutionResult? {
            guard var result = try await base.next() else { return nil }
            masking.mask(&result, requestID: requestID)
            return result
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), masking: masking, requestID: requestID)
    }
}

/// A stage of the pipeline: its product, or the outcome that ends the request.
private enum Step<Product> {
    case proceed(Product)
    case stop(GraphQLOutcome)
}

extension Step: Sendable where Product: Sendable {}

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

    /// A request refused because the server is overloaded: 503 with `Retry-After`, and
    /// `RATE_LIMITED` with `extensions.retryAfter` as for every refusal a client should retry.
    static func busy(retryAfterSeconds: Int, message: String) -> GraphQLOutcome {
        let rejection = RequestRejection(
            status: .serviceUnavailable, code: ErrorCode.rateLimited, message: message,
            headers: ["Retry-After": String(retryAfterSeconds)])
        var outcome = rejected(rejection)
        outcome.result.errors[0].extensions["retryAfter"] = .int(retryAfterSeconds)
        return outcome
    }

    /// A rejected request; its error carries the rejection's code.
    static func rejected(_ rejection: RequestRejection) -> GraphQLOutcome {
        GraphQLOutcome(
            result: ExecutionResult(data: nil, errors: [GraphQLError(message: rejection.message, extensions: ["code": .string(rejection.code)])]),
            status: .rejected(rejection))
    }
}
