/// How `ValidationRule.maxComplexity(_:)` prices an operation.
///
/// A field costs its weight plus the cost of its sub-selection; a field returning a list costs
/// that times the list size it asks for: its `first` or `last` argument (a literal, the
/// request's variable value or the variable's default), otherwise `defaultListSize`. Fields of
/// fragments on different types of an abstract type all count, an upper bound of the real cost.
public struct ComplexityOptions: Sendable {
    /// The largest cost an operation may have.
    public var maximum: Int
    /// The weight of fields not in `fieldWeights`.
    public var defaultFieldWeight: Int
    /// Weights by schema coordinate, e.g. `["Query.search": 10]`.
    public var fieldWeights: [String: Int]
    /// The size assumed for a list field without a `first` or `last` argument.
    public var defaultListSize: Int
    /// The names of arguments that give the size of a list.
    public var listSizeArguments: [String]

    /// Creates options; the defaults suit a public server.
    public init(
        maximum: Int = 5_000, defaultFieldWeight: Int = 1, fieldWeights: [String: Int] = [:],
        defaultListSize: Int = 10, listSizeArguments: [String] = ["first", "last"]
    ) {
        self.maximum = maximum
        self.defaultFieldWeight = defaultFieldWeight
        self.fieldWeights = fieldWeights
        self.defaultListSize = defaultListSize
        self.listSizeArguments = listSizeArguments
    }
}

extension ValidationRule {
    /// A limit on the cost of every operation (not part of the spec); see `ComplexityOptions`.
    /// - Parameter variables: The request's variable values, for list sizes given as
    ///   variables. A cached validation result holds only for the variables it was made with,
    ///   so servers that cache validated documents run this rule per request.
    public static func maxComplexity(_ options: ComplexityOptions, variables: [String: JSON] = [:]) -> ValidationRule {
        ValidationRule(name: "MaxComplexity") { _ in ComplexityRule(options: options, variables: variables) }
    }
}

final class ComplexityRule: ValidationRuleVisitor {
    private let options: ComplexityOptions
    private let variables: [String: JSON]

    init(options: ComplexityOptions, variables: [String: JSON]) {
        self.options = options
        self.variables = variables
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            guard let root = context.schema.rootType(for: operation.operation) else { return .skipChildren }
            var counter = ComplexityCounter(
                schema: context.schema, options: options, variables: variables, fragment: context.fragment(named:))
            let cost = counter.cost(of: operation, rootType: root)
            if cost > options.maximum {
                context.report(options.refusal(of: operation, cost: cost), at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}

extension ComplexityOptions {
    /// The message refusing `operation` for costing `cost`.
    public func refusal(of operation: OperationDefinition, cost: Int) -> String {
        let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
        return "\(name) has complexity \(cost == .max ? "beyond \(Int.max)" : String(cost)), more than the maximum of \(maximum)."
    }

    /// The cost of a prepared (validated) operation with the request's `variables`: what
    /// `ValidationRule.maxComplexity(_:variables:)` checks, without a validation pass, for
    /// servers that cache validated documents and price each request.
    public func cost(of prepared: PreparedOperation, schema: Schema, variables: [String: JSON]) -> Int {
        var counter = ComplexityCounter(schema: schema, options: self, variables: variables) { prepared.fragments[$0] }
        return counter.cost(of: prepared.operation, rootType: prepared.rootType)
    }

    /// The cost of a prepared operation whatever the request's variables are, or `nil` when a
    /// list size is given by a variable: a server caching the operation can then price it once
    /// instead of per request.
    public func fixedCost(of prepared: PreparedOperation, schema: Schema) -> Int? {
        var counter = ComplexityCounter(schema: schema, options: self, variables: [:]) { prepared.fragments[$0] }
        let cost = counter.cost(of: prepared.operation, rootType: prepared.rootType)
        return counter.readsVariables ? nil : cost
    }
}

/// Prices one operation: the recursion behind ``ComplexityOptions``.
struct ComplexityCounter {
    let schema: Schema
    let options: ComplexityOptions
    let variables: [String: JSON]
    let fragment: (String) -> FragmentDefinition?
    private var variableDefaults: [String: Value] = [:]
    private var inProgress: Set<String> = []
    /// Whether a list size came from a variable, so the cost depends on the request.
    private(set) var readsVariables = false

    init(schema: Schema, options: ComplexityOptions, variables: [String: JSON], fragment: @escaping (String) -> FragmentDefinition?) {
        self.schema = schema
        self.options = options
        self.variables = variables
        self.fragment = fragment
    }

    mutating func cost(of operation: OperationDefinition, rootType: ObjectType) -> Int {
        variableDefaults = [:]
        for definition in operation.variableDefinitions {
            if let value = definition.defaultValue { variableDefaults[definition.variable.name.value] = value }
        }
        return cost(of: operation.selectionSet, on: .object(rootType))
    }

    private mutating func cost(of selectionSet: SelectionSet, on parentType: NamedType?) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                total = total.addingClamped(cost(of: field, on: parentType))
            case .inlineFragment(let inline):
                let type = inline.typeCondition.map { schema.type(named: $0.value) } ?? parentType
                total = total.addingClamped(cost(of: inline.selectionSet, on: type))
            case .fragmentSpread(let spread):
                // A spread closing a cycle adds nothing; the fragment cycle rule reports it.
                guard let definition = fragment(spread.name.value), inProgress.insert(spread.name.value).inserted else { continue }
                total = total.addingClamped(cost(of: definition.selectionSet, on: schema.type(named: definition.typeCondition.value)))
                inProgress.remove(spread.name.value)
            }
        }
        return total
    }

    private mutating func cost(of field: Field, on parentType: NamedType?) -> Int {
        let definition = parentType.flatMap { schema.field(named: field.name.value, on: $0) }
        var weight = options.defaultFieldWeight
        if let parentType, !options.fieldWeights.isEmpty, let custom = options.fieldWeights["\(parentType.name).\(field.name.value)"] {
            weight = custom
        }
        let children = field.selectionSet.map { cost(of: $0, on: definition?.type.namedType) } ?? 0
        let single = weight.addingClamped(children)
        guard let definition, definition.type.isList else { return single }
        return single.multipliedClamped(by: listSize(field))
    }

    private mutating func listSize(_ field: Field) -> Int {
        for argument in field.arguments where options.listSizeArguments.contains(argument.name.value) {
            if let size = intValue(argument.value) { return max(0, size) }
        }
        return options.defaultListSize
    }

    private mutating func intValue(_ value: Value) -> Int? {
        switch value.kind {
        case .int(let text): return Int(text)
        case .variable(let name):
            readsVariables = true
            if case .int(let size)? = variables[name] { return size }
            guard let defaultValue = variableDefaults[name] else { return nil }
            return intValue(defaultValue)
        default: return nil
        }
    }
}
