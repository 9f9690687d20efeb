extension ValidationRule {
    /// Fragments On Composite Types (spec 5.5.1.3): type conditions name objects, interfaces
    /// or unions.
    public static let fragmentsOnCompositeTypes = ValidationRule(
        name: "FragmentsOnCompositeTypes", visitsLeave: false, nodeKinds: [.inlineFragment, .fragmentDefinition]
    ) { _ in
        FragmentsOnCompositeTypesRule()
    }
}

final class FragmentsOnCompositeTypesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .inlineFragment(let fragment):
            if let condition = fragment.typeCondition, let type = context.schema.type(named: condition.value),
               !type.isCompositeType {
                context.report(
                    "Fragment cannot condition on non composite type \"\(condition.value)\".", at: [condition.location])
            }
        case .fragmentDefinition(let fragment):
            let condition = fragment.typeCondition
            if let type = context.schema.type(named: condition.value), !type.isCompositeType {
                context.report(
                    "Fragment \"\(fragment.name.value)\" cannot condition on non composite type \"\(condition.value)\".",
                    at: [condition.location])
            }
        default:
            break
        }
        return .continue
    }
}
