extension ValidationRule {
    /// Fragment Name Uniqueness (spec 5.5.1.1): no two fragments share a name.
    public static let uniqueFragmentNames = ValidationRule(
        name: "UniqueFragmentNames", visitsLeave: false, nodeKinds: [.fragmentDefinition]
    ) { _ in
        UniqueFragmentNamesRule()
    }
}

final class UniqueFragmentNamesRule: ValidationRuleVisitor {
    private var known: [String: Name] = [:]

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .fragmentDefinition(let fragment):
            let name = fragment.name
            if let first = known[name.value] {
                context.report("There can be only one fragment named \"\(name.value)\".", at: [first.location, name.location])
            } else {
                known[name.value] = name
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
