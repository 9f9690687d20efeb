/// What validation rules share while checking one document: the schema, the document, the
/// type information of the node being visited, the errors so far, and lookups computed once
/// per document (fragments by name, fragment spreads per selection set, fragments reachable
/// from an operation, variable usages).
///
/// Created by `validate(schema:document:rules:options:)` for one walk; not thread-safe.
public final class ValidationContext {
    /// The schema the document is checked against.
    public let schema: Schema
    /// The document being checked.
    public let document: Document
    /// The options of this validation.
    public let options: ValidationOptions
    /// The types in effect at the node being visited.
    ///
    /// Exclusive access is not checked at run time (the checks were about 1% of validating
    /// the introspection query): only the walker mutates it, once per node entered and left,
    /// with a call that never reaches back into the context, and the context belongs to one
    /// walk on one thread.
    @exclusivity(unchecked) public internal(set) var typeInfo: TypeInfo
    /// The nodes enclosing the node being visited, outermost (the document) first.
    /// Unchecked for the same reason as `typeInfo`: only the walker appends and removes.
    @exclusivity(unchecked) public internal(set) var ancestors: [ASTNode] = []
    /// The errors reported so far.
    public private(set) var errors: [GraphQLError] = []
    /// Whether the error limit was reached; the walk then ends.
    public private(set) var isAborted = false

    private let fragmentsByName: [String: FragmentDefinition]
    private var spreadsBySelectionSet: [ObjectIdentifier: [FragmentSpread]] = [:]
    private var fragmentsByOperation: [ObjectIdentifier: [FragmentDefinition]] = [:]
    private var usagesByNode: [ObjectIdentifier: [VariableUsage]] = [:]
    private var recursiveUsagesByOperation: [ObjectIdentifier: [VariableUsage]] = [:]
    /// The directives the document may use, by name (`DirectiveSignature.all(in:)`), computed
    /// once for the rules that check directives.
    private(set) lazy var directiveSignatures = DirectiveSignature.all(in: self)

    init(schema: Schema, document: Document, options: ValidationOptions) {
        self.schema = schema
        self.document = document
        self.options = options
        self.typeInfo = TypeInfo(schema: schema)
        var fragments: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in document.definitions where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        self.fragmentsByName = fragments
        ancestors.reserveCapacity(32)
    }

    // MARK: Reporting

    /// Records an error; once `options.maxErrors` errors are recorded, the next one is replaced
    /// by "Too many validation errors, error limit reached. Validation aborted." and the walk ends.
    public func report(_ error: GraphQLError) {
        guard !isAborted else { return }
        if errors.count >= options.maxErrors {
            errors.append(GraphQLError(
                message: "Too many validation errors, error limit reached. Validation aborted."))
            isAborted = true
            return
        }
        errors.append(error)
    }

    /// Records an error with the given message at the given locations.
    public func report(_ message: String, at locations: [Location]) {
        report(GraphQLError(message: message, locations: locations.map(\.sourceLocation)))
    }

    /// `" Did you mean …?"` with the options close to `input`, or `""` when there are none or
    /// suggestions are turned off.
    public func suggestionText(for input: String, options candidates: [String], subject: String? = nil) -> String {
        guard options.suggestions else { return "" }
        return didYouMean(suggestionList(input: input, options: candidates), subject: subject)
    }

    /// `" Did you mean …?"` with ready-made suggestions, or `""` when suggestions are turned off.
    public func suggestionText(_ suggestions: [String], subject: String? = nil) -> String {
        guard options.suggestions else { return "" }
        return didYouMean(suggestions, subject: subject)
    }

    // MARK: Shortcuts to the type information

    /// The output type of the current field, operation or fragment.
    public var type: SchemaType? { typeInfo.type }
    /// The composite type whose selection set is being visited.
    public var parentType: NamedType? { typeInfo.parentType }
    /// The type the current value is expected to have.
    public var inputType: SchemaType? { typeInfo.inputType }
    /// The expected type of the value enclosing the current one.
    public var parentInputType: SchemaType? { typeInfo.parentInputType }
    /// The definition of the current field.
    public var fieldDefinition: SchemaField? { typeInfo.fieldDefinition }
    /// The directive whose arguments are being visited.
    public var directive: SchemaDirective? { typeInfo.directive }
    /// The argument definition of the argument being visited.
    public var argument: InputValue? { typeInfo.argument }

    // MARK: Per-document lookups

    /// The first fragment definition called `name`.
    public func fragment(named name: String) -> FragmentDefinition? { fragmentsByName[name] }

    /// The fragment spreads in a selection set and the selection sets nested in it, without
    /// following the spreads; cached per selection set.
    public func fragmentSpreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        let key = ObjectIdentifier(selectionSet)
        if let cached = spreadsBySelectionSet[key] { return cached }
        var spreads: [FragmentSpread] = []
        var pending = [selectionSet]
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case .field(let field): if let nested = field.selectionSet { pending.append(nested) }
                case .fragmentSpread(let spread): spreads.append(spread)
                case .inlineFragment(let fragment): pending.append(fragment.selectionSet)
                }
            }
        }
        spreadsBySelectionSet[key] = spreads
        return spreads
    }

    /// The fragments an operation uses, directly or through other fragments, each once, in the
    /// order they are first reached; cached per operation.
    public func recursivelyReferencedFragments(of operation: OperationDefinition) -> [FragmentDefinition] {
        let key = ObjectIdentifier(operation)
        if let cached = fragmentsByOperation[key] { return cached }
        var fragments: [FragmentDefinition] = []
        var collected: Set<String> = []
        var pending = [operation.selectionSet]
        while let set = pending.popLast() {
            for spread in fragmentSpreads(in: set) {
                let name = spread.name.value
                guard collected.insert(name).inserted, let fragment = fragment(named: name) else { continue }
                fragments.append(fragment)
                pending.append(fragment.selectionSet)
            }
        }
        fragmentsByOperation[key] = fragments
        return fragments
    }

    /// The variables used directly in an operation or fragment (not in the fragments it
    /// spreads), with the type expected where each is used; cached per definition.
    public func variableUsages(in definition: Definition) -> [VariableUsage] {
        let key: ObjectIdentifier
        switch definition {
        case .operation(let operation): key = ObjectIdentifier(operation)
        case .fragment(let fragment): key = ObjectIdentifier(fragment)
        default: return []
        }
        if let cached = usagesByNode[key] { return cached }
        // Most definitions use no variable at all; finding that out needs no type information,
        // so the walk that tracks types runs only for those that do.
        let usesVariables = switch definition {
        case .operation(let operation): referencesVariables(operation.directives, operation.selectionSet)
        case .fragment(let fragment): referencesVariables(fragment.directives, fragment.selectionSet)
        default: false
        }
        var collector = VariableUsageCollector(typeInfo: TypeInfo(schema: schema))
        if usesVariables { ASTNode(definition).walk(&collector) }
        usagesByNode[key] = collector.usages
        return collector.usages
    }

    /// The variables used in an operation and in every fragment it uses; cached per operation.
    public func recursiveVariableUsages(of operation: OperationDefinition) -> [VariableUsage] {
        let key = ObjectIdentifier(operation)
        if let cached = recursiveUsagesByOperation[key] { return cached }
        var usages = variableUsages(in: .operation(operation))
        for fragment in recursivelyReferencedFragments(of: operation) {
            usages += variableUsages(in: .fragment(fragment))
        }
        recursiveUsagesByOperation[key] = usages
        return usages
    }
}

/// Whether a variable occurs in `directives` or anywhere in `selectionSet` (arguments and
/// directives of its fields and fragments, at any depth; not inside the fragments it spreads).
private func referencesVariables(_ directives: [Directive], _ selectionSet: SelectionSet?) -> Bool {
    if directives.contains(where: { $0.arguments.contains { !$0.value.isConstant } }) { return true }
    guard let selectionSet else { return false }
    return selectionSet.selections.contains { selection in
        switch selection {
        case .field(let field):
            field.arguments.contains { !$0.value.isConstant } || referencesVariables(field.directives, field.selectionSet)
        case .fragmentSpread(let spread):
            referencesVariables(spread.directives, nil)
        case .inlineFragment(let fragment):
            referencesVariables(fragment.directives, fragment.selectionSet)
        }
    }
}

/// A use of a variable inside an operation or fragment, with what its position expects.
public struct VariableUsage: Sendable {
    /// The variable's name without `$`.
    public let name: String
    /// Where `$name` lies.
    public let location: Location
    /// The type expected at the position; `nil` where the position is unknown to the schema.
    public let type: SchemaType?
    /// The type of the list or input object the variable is an item or field of.
    public let parentType: SchemaType?
    /// Whether the argument or input field the variable is given to declares a default value.
    public let hasLocationDefaultValue: Bool
}

/// Collects variable usages with their expected types; variable definitions are skipped, so
/// default values (which are constant) contribute nothing.
private struct VariableUsageCollector: ASTVisitor {
    var typeInfo: TypeInfo
    var usages: [VariableUsage] = []

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        if case .variableDefinition = node { return .skipChildren }
        typeInfo.enter(node)
        if case .value(let value) = node, case .variable(let name) = value.kind {
            usages.append(VariableUsage(
                name: name, location: value.location, type: typeInfo.inputType,
                parentType: typeInfo.parentInputType, hasLocationDefaultValue: typeInfo.hasDefaultValue))
        }
        return .continue
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        typeInfo.leave(node)
        return .continue
    }
}
