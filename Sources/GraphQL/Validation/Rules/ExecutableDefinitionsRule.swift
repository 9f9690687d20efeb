extension ValidationRule {
    /// Executable Definitions (spec 5.1.1): a document sent for execution holds only operations
    /// and fragments.
    public static let executableDefinitions = ValidationRule(
        name: "ExecutableDefinitions", visitsLeave: false, nodeKinds: [.document]
    ) { _ in
        ExecutableDefinitionsRule()
    }
}

final class ExecutableDefinitionsRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .document(let document) = node else { return .continue }
        for definition in document.definitions where !definition.isExecutable {
            let name: String
            switch definition {
            case .type(let type), .typeExtension(let type): name = "\"\(type.name.value)\""
            case .directive(let directive): name = "\"\(directive.name.value)\""
            default: name = "schema"
            }
            context.report("The \(name) definition is not executable.", at: [definition.location])
        }
        return .skipChildren
    }
}
