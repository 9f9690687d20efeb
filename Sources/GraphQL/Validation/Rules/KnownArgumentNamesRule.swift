extension ValidationRule {
    /// Argument Names (spec 5.4.1): every argument is defined by its field or directive.
    public static let knownArgumentNames = ValidationRule(
        name: "KnownArgumentNames", visitsLeave: false, nodeKinds: [.directive, .argument]
    ) { context in
        KnownArgumentNamesRule(signatures: context.directiveSignatures)
    }
}

final class KnownArgumentNamesRule: ValidationRuleVisitor {
    private let signatures: [String: DirectiveSignature]

    init(signatures: [String: DirectiveSignature]) {
        self.signatures = signatures
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .directive(let directive):
            let name = directive.name.value
            guard let known = signatures[name]?.argumentNames else { return .skipChildren }
            for argument in directive.arguments where !known.contains(argument.name.value) {
                let argumentName = argument.name.value
                context.report(
                    "Unknown argument \"\(argumentName)\" on directive \"@\(name)\"."
                        + context.suggestionText(for: argumentName, options: known),
                    at: [argument.location])
            }
            return .skipChildren
        case .argument(let argument):
            if context.argument == nil, let field = context.fieldDefinition, let parentType = context.parentType {
                let argumentName = argument.name.value
                context.report(
                    "Unknown argument \"\(argumentName)\" on field \"\(parentType.name).\(field.name)\"."
                        + context.suggestionText(for: argumentName, options: field.arguments.map(\.name)),
                    at: [argument.location])
            }
            return .skipChildren
        default:
            return .continue
        }
    }
}
