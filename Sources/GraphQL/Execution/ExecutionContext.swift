/// A completed value, or the work that completes it after a resolver's async work.
///
/// `nil` means the value failed to complete and its error was recorded: the failure
/// propagates to the nearest nullable position (spec 6.4.4, "Handling Execution Errors").
enum Completion {
    case done(ResultNode?)
    case pending(() async -> ResultNode?)

    /// Waits for pending work; completed values are returned as they are.
    func value() async -> ResultNode? {
        switch self {
        case .done(let value): value
        case .pending(let work): await work()
        }
    }
}

/// The state of one execution: the request, the application's context value and the
/// errors so far. Lives on one task; every step runs synchronously until a resolver returns
/// async work, and only that field's completion is awaited (no task per field or item).
final class ExecutionContext {
    let request: RequestContext
    let context: any Sendable
    /// Whether root fields without a resolver take the root value itself (subscription
    /// events) instead of reading a property of it.
    let rootFieldsTakeRootValue: Bool
    private(set) var errors: [GraphQLError] = []
    private let typeResolvers: [ObjectIdentifier: TypeResolver]

    init(request: RequestContext, context: any Sendable, rootFieldsTakeRootValue: Bool = false) {
        self.request = request
        self.context = context
        self.rootFieldsTakeRootValue = rootFieldsTakeRootValue
        typeResolvers = request.executor.typeResolvers
    }

    // MARK: - Selection sets

    /// Executes the operation's root selection set; serially (each root field completed,
    /// async work included, before the next starts) for mutations.
    func executeRoot(rootValue: Any, serially: Bool) async -> ResultNode? {
        let plan = request.prepared.rootPlan(request)
        guard serially else {
            return await executeFields(plan, source: rootValue, path: nil).value()
        }
        var values: [ResultNode] = []
        values.reserveCapacity(plan.fields.count)
        for field in plan.fields {
            let path = ResponsePath(parent: nil, last: .key(field.responseKey))
            let source = field.kind.isDefaultResolver ? FieldSource(rootValue) : .other
            guard let value = await executeField(field, plan.objectType, rootValue, source, path).value() else { return nil }
            values.append(value)
        }
        return .object(plan, values)
    }

    /// Spec ExecuteSelectionSet for one object: every planned field in order. Fields whose
    /// resolvers return async work are completed after the synchronous ones, in order.
    func executeFields(_ plan: SelectionPlan, source: Any, path: PathNode?) -> Completion {
        var values: [ResultNode] = []
        values.reserveCapacity(plan.fields.count)
        var pending: [(index: Int, work: () async -> ResultNode?)] = []
        let fieldSource = plan.usesDefaultResolver ? FieldSource(source) : .other
        // Plain data's scalars: read and serialized in place, with no response path.
        let dictionary: [String: any Sendable]? =
            if path != nil || !rootFieldsTakeRootValue, case .sendableDictionary(let dictionary) = fieldSource { dictionary } else { nil }
        for field in plan.fields {
            if let dictionary, let leaf = field.plainLeafType, let json = fastSerialize(dictionary[field.name], as: leaf) {
                values.append(.leaf(json))
                continue
            }
            let fieldPath = ResponsePath(parent: path, last: .key(field.responseKey))
            switch executeField(field, plan.objectType, source, fieldSource, fieldPath) {
            case .done(let value?): values.append(value)
            case .done(nil): return .done(nil)
            case .pending(let work):
                pending.append((values.count, work))
                values.append(.null)
            }
        }
        if pending.isEmpty { return .done(.object(plan, values)) }
        return .pending { [values] in
            var values = values
            for (index, work) in pending {
                guard let value = await work() else { return nil }
                values[index] = value
            }
            return .object(plan, values)
        }
    }

    // MARK: - Fields

    /// Spec ExecuteField: coerces the arguments, calls the resolver and completes its value.
    func executeField(
        _ field: FieldPlan, _ parentType: ObjectType, _ source: Any, _ fieldSource: FieldSource, _ path: ResponsePath
    ) -> Completion {
        let resolved: Any?
        switch field.kind {
        case .typeName:
            return .done(.leaf(.string(parentType.name)))
        case .introspectionDisabled:
            return fieldFailed(
                GraphQLError(message: "GraphQL introspection has been disabled, but the requested query contained the field \"\(field.definition.name)\"."),
                field, path)
        case .defaultResolver:
            if !field.definition.arguments.isEmpty {
                do throws(GraphQLError) { _ = try arguments(of: field) } catch { return fieldFailed(error, field, path) }
            }
            if rootFieldsTakeRootValue, path.parent == nil {
                resolved = source
            } else {
                resolved = fieldSource.value(named: field.name)
                // Plain data's scalars: nothing to unwrap, check or resolve.
                if let leaf = field.fastLeafType, let json = fastSerialize(resolved, as: leaf) {
                    return .done(.leaf(json))
                }
            }
        case .attached(.builtIn(let resolver)):
            do throws(GraphQLError) {
                resolved = try resolver(source, try arguments(of: field), request.schema)
            } catch {
                return fieldFailed(error, field, path)
            }
        case .attached(.leaf(let resolver)):
            let json: JSON
            do throws(GraphQLError) { json = try resolver(source) } catch { return fieldFailed(error, field, path) }
            guard case .null = json else { return .done(.leaf(json)) }
            guard field.returnType.isNonNull else { return .done(.null) }
            return nullInNonNullField(field, parentType, path)
        case .attached(.resolver(let resolver)):
            let arguments: Arguments
            do throws(GraphQLError) { arguments = try self.arguments(of: field) } catch { return fieldFailed(error, field, path) }
            let info = ResolveInfo(request: request, plan: field, parentType: parentType, responsePath: path)
            do {
                switch try resolver(source, arguments, context, info) {
                case .value(let value):
                    resolved = value
                case .async(let work):
                    return .pending { [self] in
                        let value: Any?
                        do {
                            value = try await work()
                        } catch {
                            return await fieldFailed(error, field, path).value()
                        }
                        return await completeValue(field.returnType, field, parentType, value, path).value()
                    }
                }
            } catch {
                return fieldFailed(error, field, path)
            }
        }
        return completeValue(field.returnType, field, parentType, resolved, path)
    }

    private func arguments(of field: FieldPlan) throws(GraphQLError) -> Arguments {
        if let constant = field.constantArguments { return try constant.get() }
        return try coerceArgumentValues(definition: field.definition, node: field.fieldNodes[0], variables: request.variableValues)
    }

    /// Records a field error; the field is `null`, or the failure propagates if it is non-null.
    private func fieldFailed(_ error: any Error, _ field: FieldPlan, _ path: ResponsePath) -> Completion {
        record(error, field, path)
        return .done(field.returnType.isNonNull ? nil : .null)
    }

    /// Records the error of a non-null field whose value is null; the failure propagates.
    private func nullInNonNullField(_ field: FieldPlan, _ parentType: ObjectType, _ path: ResponsePath) -> Completion {
        record(
            GraphQLError(message: "Cannot return null for non-nullable field \(parentType.name).\(field.definition.name)."),
            field, path)
        return .done(nil)
    }

    private func record(_ error: any Error, _ field: FieldPlan, _ path: ResponsePath) {
        var located: GraphQLError
        switch error {
        case let error as GraphQLError:
            located = error
        case let convertible as any GraphQLErrorConvertible:
            located = convertible.graphQLError
            if located.underlyingError == nil { located.underlyingError = error }
        default:
            located = GraphQLError(message: String(describing: error), underlyingError: error)
        }
        if located.locations.isEmpty { located.locations = field.locations }
        if located.path.isEmpty { located.path = path.elements }
        errors.append(located)
    }

    // MARK: - Values

    /// Spec CompleteValue: checks non-null, then completes lists, leaves and objects.
    func completeValue(
        _ type: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any?, _ path: ResponsePath
    ) -> Completion {
        if let leaf = field.fastLeafType, let json = fastSerialize(value, as: leaf) {
            return .done(.leaf(json))
        }
        if case .nonNull(let inner) = type {
            guard let value = nonNullValue(value) else { return nullInNonNullField(field, parentType, path) }
            return completeNonNull(inner, field, parentType, value, path)
        }
        guard let value = nonNullValue(value) else { return .done(.null) }
        return nullable(completeNonNull(type, field, parentType, value, path))
    }

    /// The completion of a nullable position: a failure there becomes `null`.
    private func nullable(_ completion: Completion) -> Completion {
        switch completion {
        case .done(let completed): .done(completed ?? .null)
        case .pending(let work): .pending { await work() ?? .null }
        }
    }

    /// Completes a value known not to be null against a nullable type.
    private func completeNonNull(
        _ type: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any, _ path: ResponsePath
    ) -> Completion {
        switch type {
        case .nonNull:
            return completeValue(type, field, parentType, value, path)
        case .list(let itemType):
            return completeList(itemType, field, parentType, value, path)
        case .named(let named):
            switch named {
            case .scalar(let scalar):
                do {
                    return .done(.leaf(try scalar.serialize(value)))
                } catch {
                    record(error, field, path)
                    return .done(nil)
                }
            case .enumType(let enumType):
                do {
                    return .done(.leaf(try enumType.serialize(value)))
                } catch {
                    record(error, field, path)
                    return .done(nil)
                }
            case .object(let objectType):
                return executeFields(field.childPlan(for: objectType, request: request), source: value, path: path.node)
            case .interface, .union:
                let objectType: ObjectType
                do throws(GraphQLError) {
                    objectType = try runtimeType(of: value, abstractType: named, field, parentType, path)
                } catch {
                    record(error, field, path)
                    return .done(nil)
                }
                return executeFields(field.childPlan(for: objectType, request: request), source: value, path: path.node)
            case .inputObject:
                record(GraphQLError(message: "Input object type \"\(named.name)\" cannot be a field's type."), field, path)
                return .done(nil)
            }
        }
    }

    /// Result coercion of a built-in scalar's common Swift value (a `String` for `String`,
    /// an `Int` for `Int`, …) without unwrapping or the scalar's general rules; `nil` when
    /// the value is anything else (including `nil`), which takes the general path.
    /// (Generic so that values read as `any Sendable` are cast without converting to `Any`.)
    @inline(__always)
    private func fastSerialize<Value>(_ value: Value?, as leaf: FieldPlan.FastLeaf) -> JSON? {
        switch leaf {
        case .string:
            if let string = value as? String { return .string(string) }
        case .int:
            if let int = value as? Int, SpecifiedScalarCoercing.int32Range.contains(int) { return .int(int) }
        case .boolean:
            if let bool = value as? Bool { return .bool(bool) }
        case .float:
            if let double = value as? Double, double.isFinite { return .double(double) }
        }
        return nil
    }

    private func completeList(
        _ itemType: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any, _ path: ResponsePath
    ) -> Completion {
        // Exact type checks before the casts: they are pointer comparisons, while a failed cast
        // to `JSON` or `String` costs as much as a successful one.
        let valueType = type(of: value)
        if valueType == JSON.self {
            if case .array(let items) = value as! JSON { return completeItems(items, itemType, field, parentType, path) }
        } else if valueType != String.self, let sequence = value as? any Sequence {
            return completeItems(sequence, itemType, field, parentType, path)
        }
        record(
            GraphQLError(message: "Expected Iterable, but did not find one for field \"\(parentType.name).\(field.definition.name)\"."),
            field, path)
        return .done(nil)
    }

    private func completeItems(
        _ items: some Sequence, _ itemType: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ path: ResponsePath
    ) -> Completion {
        let listNode = path.node
        var values: [ResultNode] = []
        values.reserveCapacity(items.underestimatedCount)
        var pending: [(index: Int, work: () async -> ResultNode?)] = []
        // Items of an object type share one plan: found once, not once per item.
        let itemPlan: SelectionPlan? =
            if case .named(.object(let objectType)) = itemType.nullableType { field.childPlan(for: objectType, request: request) } else { nil }
        for item in items {
            let itemPath = ResponsePath(parent: listNode, last: .index(values.count))
            let completion: Completion
            if let itemPlan, let value = nonNullValue(item) {
                let fields = executeFields(itemPlan, source: value, path: itemPath.node)
                completion = itemType.isNonNull ? fields : nullable(fields)
            } else {
                completion = completeValue(itemType, field, parentType, item, itemPath)
            }
            switch completion {
            case .done(let value?): values.append(value)
            case .done(nil): return .done(nil)
            case .pending(let work):
                pending.append((values.count, work))
                values.append(.null)
            }
        }
        if pending.isEmpty { return .done(.list(values)) }
        return .pending { [values] in
            var values = values
            for (index, work) in pending {
                guard let value = await work() else { return nil }
                values[index] = value
            }
            return .list(values)
        }
    }

    /// Spec ResolveAbstractType, then the check that the runtime type is a possible type.
    private func runtimeType(
        of value: Any, abstractType: NamedType, _ field: FieldPlan, _ parentType: ObjectType, _ path: ResponsePath
    ) throws(GraphQLError) -> ObjectType {
        let name: String?
        if let resolver = typeResolvers[abstractType.identity] {
            let info = ResolveInfo(request: request, plan: field, parentType: parentType, responsePath: path)
            do {
                name = try resolver(value, context, info)
            } catch let error as GraphQLError {
                throw error
            } catch {
                throw GraphQLError(message: String(describing: error), underlyingError: error)
            }
        } else {
            name = defaultTypeName(value)
        }
        let schema = request.schema
        guard let name else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field "
                + "\"\(parentType.name).\(field.definition.name)\". Either the \"\(abstractType.name)\" type should "
                + "provide a type resolver or the value should carry its \"__typename\".")
        }
        guard let runtimeType = schema.type(named: name) else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(name)\" that does not exist inside the schema.")
        }
        guard case .object(let objectType) = runtimeType else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(name)\".")
        }
        guard schema.isPossibleType(objectType, of: abstractType) else {
            throw GraphQLError(message: "Runtime Object type \"\(name)\" is not a possible type for \"\(abstractType.name)\".")
        }
        return objectType
    }
}
