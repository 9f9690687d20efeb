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
    private var variableDefaults: [String: Value] = [:]
    private var inProgress: Set<String> = []

    init(options: ComplexityOptions, variables: [String: JSON]) {
        self.options = options
        self.variables = variables
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            guard let root = context.schema.rootType(for: operation.operation) else { return .skipChildren }
            variableDefaults = [:]
            for definition in operation.variableDefinitions {
                if let value = definition.defaultValue { variableDefaults[definition.variable.name.value] = value }
            }
            let cost = cost(of: operation.selectionSet, on: .object(root), context)
            if cost > options.maximum {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                context.report(
                    "\(name) has complexity \(cost == .max ? "beyond \(Int.max)" : String(cost)), more than the maximum of \(options.maximum).",
                    at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func cost(of selectionSet: SelectionSet, on parentType: NamedType?, _ context: ValidationContext) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                total = total.addingClamped(cost(of: field, on: parentType, context))
            case .inlineFragment(let fragment):
                let type = fragment.typeCondition.map { context.schema.type(named: $0.value) } ?? parentType
                total = total.addingClamped(cost(of: fragment.selectionSet, on: type, context))
            case .fragmentSpread(let spread):
                // A spread closing a cycle adds nothing; the fragment cycle rule reports it.
                guard let fragment = context.fragment(named: spread.name.value),
                      inProgress.insert(spread.name.value).inserted else { continue }
                total = total.addingClamped(
                    cost(of: fragment.selectionSet, on: context.schema.type(named: fragment.typeCondition.value), context))
                inProgress.remove(spread.name.value)
            }
        }
        return total
    }

    private func cost(of field: Field, on parentType: NamedType?, _ context: ValidationContext) -> Int {
        let definition = parentType.flatMap { context.schema.field(named: field.name.value, on: $0) }
        var weight = options.defaultFieldWeight
        if let parentType, let custom = options.fieldWeights["\(parentType.name).\(field.name.value)"] { weight = custom }
        let children = field.selectionSet.map { cost(of: $0, on: definition?.type.namedType, context) } ?? 0
        let single = weight.addingClamped(children)
        guard let definition, definition.type.isList else { return single }
        return single.multipliedClamped(by: listSize(field))
    }

    private func listSize(_ field: Field) -> Int {
        for argument in field.arguments where options.listSizeArguments.contains(argument.name.value) {
            if let size = intValue(argument.value) { return max(0, size) }
        }
        return options.defaultListSize
    }

    private func intValue(_ value: Value) -> Int? {
        switch value.kind {
        case .int(let text): return Int(text)
        case .variable(let name):
            if case .int(let size)? = variables[name] { return size }
            return variableDefaults[name].flatMap(intValue)
        default: return nil
        }
    }
}
