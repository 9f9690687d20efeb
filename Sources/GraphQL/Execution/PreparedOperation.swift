import Synchronization

/// An operation chosen from a document (spec GetOperation) and bound to an executor, with
/// the execution plans its requests share: collected fields per (object type, field nodes)
/// and coerced constant arguments are computed on first use and reused by every later
/// request. Cache it next to the validated document.
public final class PreparedOperation: Sendable {
    /// The document the operation comes from; assumed valid.
    public let document: Document
    /// The operation to execute.
    public let operation: OperationDefinition
    /// The document's fragments by name.
    public let fragments: [String: FragmentDefinition]
    /// The root type of the operation's kind.
    public let rootType: ObjectType
    /// Whether `@skip`/`@include` take variables, so plans are built per request.
    let plansDependOnVariables: Bool
    /// The schema type of each of the operation's variable definitions, in their order (`nil`
    /// for a name the schema does not know): looked up once, not at every request's coercion.
    let variableTypes: [SchemaType?]
    private let sharedRootPlan = Mutex<SelectionPlan?>(nil)

    init(document: Document, operationName: String?, schema: Schema) throws(GraphQLError) {
        var operation: OperationDefinition?
        var fragments: [String: FragmentDefinition] = [:]
        var operationCount = 0
        for definition in document.definitions {
            switch definition {
            case .operation(let candidate):
                operationCount += 1
                if let operationName {
                    if candidate.name?.value == operationName { operation = candidate }
                } else {
                    operation = candidate
                }
            case .fragment(let fragment):
                if fragments[fragment.name.value] == nil { fragments[fragment.name.value] = fragment }
            default:
                break
            }
        }
        guard let operation else {
            if let operationName { throw GraphQLError(message: "Unknown operation named \"\(operationName)\".") }
            throw GraphQLError(message: "Must provide an operation.")
        }
        if operationName == nil, operationCount > 1 {
            throw GraphQLError(message: "Must provide operation name if query contains multiple operations.")
        }
        guard let rootType = schema.rootType(for: operation.operation) else {
            throw GraphQLError(
                message: "Schema is not configured to execute \(operation.operation.rawValue) operation.",
                locations: [operation.location.sourceLocation])
        }
        self.document = document
        self.operation = operation
        self.fragments = fragments
        self.rootType = rootType
        self.plansDependOnVariables = collectionDependsOnVariables(operation, fragments: fragments)
        variableTypes = operation.variableDefinitions.map { schema.schemaType(of: $0.type) }
    }

    /// The plan of the root selection set for `request`.
    func rootPlan(_ request: RequestContext) -> SelectionPlan {
        let build = { SelectionPlan(objectType: self.rootType, selectionSets: [self.operation.selectionSet], request: request) }
        if plansDependOnVariables { return build() }
        if let plan = sharedRootPlan.withLock({ $0 }) { return plan }
        let plan = build()
        return sharedRootPlan.withLock { shared in
            if let shared { return shared }
            shared = plan
            return plan
        }
    }
}

/// What every field of one request shares: the executor, the operation and the coerced
/// variables. Immutable, so resolvers may keep `ResolveInfo` beyond the call.
final class RequestContext: Sendable {
    let executor: Executor
    let prepared: PreparedOperation
    let variableValues: [String: JSON]

    init(executor: Executor, prepared: PreparedOperation, variableValues: [String: JSON]) {
        self.executor = executor
        self.prepared = prepared
        self.variableValues = variableValues
    }

    var schema: Schema { executor.schema }
}

/// What a resolver may want to know about the field it resolves (graphql-js
/// `GraphQLResolveInfo`). Cheap to create: the path and everything else are computed when read.
public struct ResolveInfo: Sendable {
    let request: RequestContext
    let plan: FieldPlan
    /// The object type whose field is resolved.
    public let parentType: ObjectType
    /// The field's position in the response.
    public let responsePath: ResponsePath

    /// The field's name in the schema.
    public var fieldName: String { plan.definition.name }
    /// The field's key in the response (its alias, or its name).
    public var responseKey: String { plan.responseKey }
    /// The field's definition.
    public var fieldDefinition: SchemaField { plan.definition }
    /// The field's declared type.
    public var returnType: SchemaType { plan.definition.type }
    /// The field's nodes in the document (several when selected more than once).
    public var fieldNodes: [Field] { plan.fieldNodes }
    /// The field's response path, e.g. `["users", 3, "name"]`.
    public var path: [GraphQLError.PathElement] { responsePath.elements }
    /// The schema.
    public var schema: Schema { request.schema }
    /// The operation being executed.
    public var operation: OperationDefinition { request.prepared.operation }
    /// The document's fragments by name.
    public var fragments: [String: FragmentDefinition] { request.prepared.fragments }
    /// The request's coerced variable values.
    public var variableValues: [String: JSON] { request.variableValues }

    /// The arguments of each field named `name` in this field's selection, coerced as that
    /// field's resolver will get them (fragments, `@skip` and `@include` applied), in response
    /// order: for reading ahead, so that a resolver can fetch a value together with what the
    /// query asks of it. A field whose arguments do not coerce is left out (it reports its own
    /// error when it runs); empty when the field's type is not an object type.
    public func selectedArguments(of name: String) -> [Arguments] {
        guard case .object(let type) = returnType.namedType else { return [] }
        return plan.childPlan(for: type, request: request).fields.compactMap { field in
            guard field.name == name else { return nil }
            return try? field.arguments(in: request)
        }
    }
}
