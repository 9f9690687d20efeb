extension ValidationRule {
    /// Operation Type Existence (spec 5.2.1, September 2025): the schema has a root type for
    /// the kind of every operation (a mutation needs a mutation type).
    public static let operationTypeExistence = ValidationRule(
        name: "OperationTypeExistence", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        OperationTypeExistenceRule()
    }
}

final class OperationTypeExistenceRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .operationDefinition(let operation):
            if context.schema.rootType(for: operation.operation) == nil {
                context.report(
                    "The \(operation.operation.rawValue) operation is not supported by the schema.",
                    at: [operation.location])
            }
            return .skipChildren
        case .document: return .continue
        default: return .skipChildren
        }
    }
}
