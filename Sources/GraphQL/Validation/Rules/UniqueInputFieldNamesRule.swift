extension ValidationRule {
    /// Input Object Field Uniqueness (spec 5.6.3): no two fields of an input object literal
    /// share a name.
    public static let uniqueInputFieldNames = ValidationRule(
        name: "UniqueInputFieldNames", visitsLeave: false, nodeKinds: [.value]
    ) { _ in
        UniqueInputFieldNamesRule()
    }
}

final class UniqueInputFieldNamesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .value(let value) = node else { return .continue }
        check(value, context)
        return .skipChildren
    }

    private func check(_ value: Value, _ context: ValidationContext) {
        switch value.kind {
        case .list(let items):
            for item in items { check(item, context) }
        case .object(let fields):
            var known: [String: Location] = [:]
            for field in fields {
                if let first = known[field.name.value] {
                    context.report(
                        "There can be only one input field named \"\(field.name.value)\".", at: [first, field.name.location])
                } else {
                    known[field.name.value] = field.name.location
                }
                check(field.value, context)
            }
        default:
            break
        }
    }
}
