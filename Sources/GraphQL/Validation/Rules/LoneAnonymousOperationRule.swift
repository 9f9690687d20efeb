extension ValidationRule {
    /// Lone Anonymous Operation (spec 5.2.2.2): an operation without a name is the document's
    /// only operation.
    public static let loneAnonymousOperation = ValidationRule(
        name: "LoneAnonymousOperation", visitsLeave: false, nodeKinds: [.document, .operationDefinition]
    ) { _ in
        LoneAnonymousOperationRule()
    }
}

final class LoneAnonymousOperationRule: ValidationRuleVisitor {
    private var operationCount = 0

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document(let document):
            operationCount = document.definitions.reduce(0) {
                if case .operation = $1 { $0 + 1 } else { $0 }
            }
            return .continue
        case .operationDefinition(let operation):
            if operation.name == nil, operationCount > 1 {
                context.report("This anonymous operation must be the only defined operation.", at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
