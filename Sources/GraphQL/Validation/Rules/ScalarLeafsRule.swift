extension ValidationRule {
    /// Leaf Field Selections (spec 5.3.3): scalar and enum fields have no selection set; all
    /// other fields have one.
    public static let scalarLeafs = ValidationRule(
        name: "ScalarLeafs", visitsLeave: false, nodeKinds: [.field]
    ) { _ in ScalarLeafsRule() }
}

final class ScalarLeafsRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .field(let field) = node, let type = context.type else { return .continue }
        if type.namedType.isLeafType {
            if let selectionSet = field.selectionSet {
                context.report(
                    "Field \"\(field.name.value)\" must not have a selection since type \"\(type)\" has no subfields.",
                    at: [selectionSet.location])
            }
        } else if field.selectionSet == nil {
            context.report(
                "Field \"\(field.name.value)\" of type \"\(type)\" must have a selection of subfields."
                    + " Did you mean \"\(field.name.value) { ... }\"?",
                at: [field.location])
        }
        return .continue
    }
}
