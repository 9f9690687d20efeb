extension ValidationRule {
    /// Required Arguments (spec 5.4.2.1): every argument of non-null type without a default
    /// is given.
    public static let providedRequiredArguments = ValidationRule(
        name: "ProvidedRequiredArguments", visitsLeave: false, nodeKinds: [.directive, .field, .variableDefinition]
    ) { context in
        ProvidedRequiredArgumentsRule(signatures: context.directiveSignatures)
    }
}

final class ProvidedRequiredArgumentsRule: ValidationRuleVisitor {
    private let signatures: [String: DirectiveSignature]

    init(signatures: [String: DirectiveSignature]) {
        self.signatures = signatures
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .directive(let directive):
            let name = directive.name.value
            if let required = signatures[name]?.requiredArguments {
                for argument in required where !directive.arguments.contains(where: { $0.name.value == argument.name }) {
                    context.report(
                        "Directive \"@\(name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                        at: [directive.location])
                }
            }
            return .skipChildren
        case .field(let field):
            guard let definition = context.fieldDefinition else { return .continue }
            for argument in definition.arguments where argument.isRequired
                && !field.arguments.contains(where: { $0.name.value == argument.name }) {
                context.report(
                    "Field \"\(definition.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                    at: [field.location])
            }
            return .continue
        case .argument, .variableDefinition:
            return .skipChildren
        default:
            return .continue
        }
    }
}
