extension ValidationRule {
    /// Fragment Spread Type Existence and variable types (spec 5.5.1.2, 5.8.2): every type a
    /// document names exists in the schema.
    public static let knownTypeNames = ValidationRule(
        name: "KnownTypeNames", visitsLeave: false, nodeKinds: [.namedType]
    ) { context in
        KnownTypeNamesRule(document: context.document)
    }
}

final class KnownTypeNamesRule: ValidationRuleVisitor {
    /// Types defined by type-system definitions in the document itself, which the executable
    /// definitions rule already reports; their uses are not reported again.
    private let definedTypeNames: Set<String>
    private static let standardTypeNames = Set(ScalarType.specified.map(\.name)).union(Introspection.typeNames)

    init(document: Document) {
        var names: Set<String> = []
        for case .type(let type) in document.definitions { names.insert(type.name.value) }
        definedTypeNames = names
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .namedType(let name) = node else { return .continue }
        let typeName = name.value
        guard context.schema.type(named: typeName) == nil, !definedTypeNames.contains(typeName) else {
            return .continue
        }
        let inTypeSystemDefinition: Bool
        if context.ancestors.count > 1, case .operationDefinition = context.ancestors[1] {
            inTypeSystemDefinition = false
        } else if context.ancestors.count > 1, case .fragmentDefinition = context.ancestors[1] {
            inTypeSystemDefinition = false
        } else {
            inTypeSystemDefinition = true
        }
        if inTypeSystemDefinition, Self.standardTypeNames.contains(typeName) { return .continue }
        var candidates = context.schema.types.keys + definedTypeNames.sorted()
        if inTypeSystemDefinition { candidates += Self.standardTypeNames.sorted() }
        context.report(
            "Unknown type \"\(typeName)\"." + context.suggestionText(for: typeName, options: candidates), at: [name.location])
        return .continue
    }
}
