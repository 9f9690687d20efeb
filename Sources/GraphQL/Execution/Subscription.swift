/// The outcome of `Executor.subscribe`: a stream of responses, or the errors that prevented
/// the subscription (bad variables, a failing source stream resolver).
public enum SubscriptionResult: Sendable {
    /// The response stream (spec MapSourceToResponseEvent).
    case stream(ResponseStream)
    /// A result carrying the request or field errors; it has no `data`.
    case failure(ExecutionResult)
}

/// The response stream of a subscription: for each event of the source stream, the
/// subscription's selection set executed with the event as root value (spec
/// MapSourceToResponseEvent).
///
/// Pull-driven and task-free: an event is executed when the consumer asks for the next
/// response, on the consumer's task. To stop a subscription, cancel the consumer's task: the
/// source stream is then cancelled and its termination handler runs (release resources
/// there). An error of the source stream ends the response stream with that error.
public struct ResponseStream: AsyncSequence, Sendable {
    /// Each element is one response.
    public typealias Element = ExecutionResult

    /// The name of the subscription's root field, whose source stream this maps.
    public let fieldName: String
    /// The root field's coerced arguments, as its source stream resolver received them.
    public let arguments: Arguments
    let source: AsyncThrowingStream<any Sendable, any Error>
    let request: RequestContext
    let context: any Sendable

    /// Iterates over the responses.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var source: AsyncThrowingStream<any Sendable, any Error>.AsyncIterator
        let request: RequestContext
        let context: any Sendable

        /// The response to the next event; `nil` when the source stream finished.
        /// - Throws: The source stream's error.
        public mutating func next() async throws -> ExecutionResult? {
            guard let event = try await source.next() else { return nil }
            let execution = ExecutionContext(request: request, context: context, rootFieldsTakeRootValue: true)
            let data = await execution.executeRoot(rootValue: event, serially: false)
            return ExecutionResult(executed: data, errors: execution.errors)
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source.makeAsyncIterator(), request: request, context: context)
    }
}

extension Executor {
    /// Starts a subscription (spec Subscribe): coerces the variables, calls the root field's
    /// source stream resolver (spec CreateSourceEventStream) and maps its events to
    /// responses.
    public func subscribe(
        _ operation: PreparedOperation, variables: [String: JSON] = [:], context: any Sendable = (),
        rootValue: Any = ()
    ) async -> SubscriptionResult {
        guard operation.operation.operation == .subscription else {
            return .failure(ExecutionResult(requestErrors: [GraphQLError(
                message: "Only subscription operations can be subscribed to.",
                locations: [operation.operation.location.sourceLocation])]))
        }
        let request: RequestContext
        switch makeRequest(operation, variables: variables) {
        case .success(let made): request = made
        case .failure(let failure): return .failure(ExecutionResult(requestErrors: failure.errors))
        }
        let plan = operation.rootPlan(request)
        guard let field = plan.fields.first else {
            return .failure(ExecutionResult(requestErrors: [GraphQLError(message: "The subscription selects no field.")]))
        }
        let path = ResponsePath(parent: nil, last: .key(field.responseKey))
        func failure(_ error: any Error) -> SubscriptionResult {
            var located = (error as? GraphQLError) ?? (error as? any GraphQLErrorConvertible)?.graphQLError
                ?? GraphQLError(message: String(describing: error), underlyingError: error)
            if located.locations.isEmpty { located.locations = field.locations }
            if located.path.isEmpty { located.path = path.elements }
            return .failure(ExecutionResult(requestErrors: [located]))
        }
        guard let resolver = subscriptionResolvers[field.definition.index] else {
            return failure(GraphQLError(
                message: "No source stream is attached to subscription field \"\(plan.objectType.name).\(field.definition.name)\"."))
        }
        do {
            let arguments = try field.constantArguments?.get()
                ?? coerceArgumentValues(definition: field.definition, node: field.fieldNodes[0], variables: request.variableValues)
            let info = ResolveInfo(request: request, plan: field, parentType: plan.objectType, responsePath: path)
            let source = try await resolver(rootValue, arguments, context, info)
            return .stream(ResponseStream(
                fieldName: field.definition.name, arguments: arguments, source: source, request: request, context: context))
        } catch {
            return failure(error)
        }
    }

    /// Chooses the operation of `document` and subscribes to it.
    public func subscribe(
        document: Document, operationName: String? = nil, variables: [String: JSON] = [:],
        context: any Sendable = (), rootValue: Any = ()
    ) async -> SubscriptionResult {
        do {
            let prepared = try prepare(document, operationName: operationName)
            return await subscribe(prepared, variables: variables, context: context, rootValue: rootValue)
        } catch {
            return .failure(ExecutionResult(requestErrors: [error]))
        }
    }
}
