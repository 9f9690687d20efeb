/// How an `Executor` behaves.
public struct ExecutorOptions: Sendable {
    /// Whether `__schema` and `__type` may be queried; when off they fail with a field error
    /// (`__typename` always works). On by default.
    public var introspection: Bool
    /// The most variable coercion errors reported for one request.
    public var maxVariableErrors: Int

    /// Creates options.
    public init(introspection: Bool = true, maxVariableErrors: Int = 50) {
        self.introspection = introspection
        self.maxVariableErrors = maxVariableErrors
    }
}

/// Executes operations against a schema and its resolvers (spec section 6): queries and
/// mutations with `execute`, subscriptions with `subscribe`.
///
/// The executor runs synchronously as long as resolvers return values, and suspends only at
/// a field whose resolver returned async work; it never creates a task per field or list
/// item. Documents are assumed to have passed validation.
///
/// ```swift
/// let executor = try Executor(resolvers: resolvers)
/// let result = await executor.execute(document: try Parser.parse(query), variables: ["id": "42"], context: request)
/// send(result.serialized())
/// ```
public final class Executor: Sendable {
    /// The schema.
    public let schema: Schema
    /// The options.
    public let options: ExecutorOptions
    let fieldResolvers: [AttachedResolver?]
    let subscriptionResolvers: [SubscriptionResolver?]
    let typeResolvers: [ObjectIdentifier: TypeResolver]

    /// Creates an executor.
    /// - Throws: `SchemaError` naming every type or field `resolvers` referred to that the
    ///   schema does not have.
    public init(resolvers: Resolvers, options: ExecutorOptions = ExecutorOptions()) throws(SchemaError) {
        guard resolvers.unknownNames.isEmpty else {
            throw SchemaError(code: .invalidSchema, errors: resolvers.unknownNames.map {
                GraphQLError(message: "Resolver attached to unknown \($0).")
            })
        }
        schema = resolvers.schema
        self.options = options
        fieldResolvers = resolvers.fieldResolvers
        subscriptionResolvers = resolvers.subscriptionResolvers
        typeResolvers = resolvers.typeResolvers
    }

    /// Chooses the operation to execute (spec GetOperation) and prepares it for execution.
    /// - Parameter operationName: Required when the document has several operations.
    /// - Throws: `GraphQLError` when no operation matches or the schema has no root type
    ///   for its kind.
    public func prepare(_ document: Document, operationName: String? = nil) throws(GraphQLError) -> PreparedOperation {
        try PreparedOperation(document: document, operationName: operationName, schema: schema)
    }

    /// Executes a query or mutation (spec ExecuteRequest).
    /// - Parameters:
    ///   - variables: The request's variable values, before coercion.
    ///   - context: The application's value passed to every resolver.
    ///   - rootValue: The parent value of the root fields.
    /// - Returns: The result; request errors (bad variables, a subscription operation) come
    ///   back as a result without data.
    public func execute(
        _ operation: PreparedOperation, variables: [String: JSON] = [:], context: any Sendable = (),
        rootValue: Any = ()
    ) async -> ExecutionResult {
        guard operation.operation.operation != .subscription else {
            return ExecutionResult(requestErrors: [GraphQLError(
                message: "Subscription operations are executed with subscribe(_:).",
                locations: [operation.operation.location.sourceLocation])])
        }
        let request: RequestContext
        switch makeRequest(operation, variables: variables) {
        case .success(let made): request = made
        case .failure(let failure): return ExecutionResult(requestErrors: failure.errors)
        }
        let execution = ExecutionContext(request: request, context: context)
        let data = await execution.executeRoot(rootValue: rootValue, serially: operation.operation.operation == .mutation)
        return ExecutionResult(executed: data, errors: execution.errors)
    }

    /// Chooses the operation of `document` and executes it; request errors such as an
    /// unknown operation name come back as a result without data.
    public func execute(
        document: Document, operationName: String? = nil, variables: [String: JSON] = [:],
        context: any Sendable = (), rootValue: Any = ()
    ) async -> ExecutionResult {
        let prepared: PreparedOperation
        do {
            prepared = try prepare(document, operationName: operationName)
        } catch {
            return ExecutionResult(requestErrors: [error])
        }
        return await execute(prepared, variables: variables, context: context, rootValue: rootValue)
    }

    func makeRequest(_ operation: PreparedOperation, variables: [String: JSON]) -> Result<RequestContext, ExecutionErrors> {
        coerceVariableValues(
            definitions: operation.operation.variableDefinitions, types: operation.variableTypes, inputs: variables,
            maxErrors: options.maxVariableErrors
        ).map { RequestContext(executor: self, prepared: operation, variableValues: $0) }
    }
}
