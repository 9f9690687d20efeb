extension ValidationRule {
    /// Operation Name Uniqueness (spec 5.2.2.1): no two operations share a name.
    public static let uniqueOperationNames = ValidationRule(
        name: "UniqueOperationNames", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        UniqueOperationNamesRule()
    }
}

final class UniqueOperationNamesRule: ValidationRuleVisitor {
    private var known: [String: Name] = [:]

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            if let name = operation.name {
                if let first = known[name.value] {
                    context.report(
                        "There can be only one operation named \"\(name.value)\".", at: [first.location, name.location])
                } else {
                    known[name.value] = name
                }
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
