extension ValidationRule {
    /// Directives Are Unique Per Location (spec 5.7.3): a non-repeatable directive appears at
    /// most once on a node (on a type, across its definition and extensions).
    public static let uniqueDirectivesPerLocation = ValidationRule(
        name: "UniqueDirectivesPerLocation", visitsLeave: false,
        nodeKinds: [
            .operationDefinition, .variableDefinition, .field, .fragmentSpread, .inlineFragment, .fragmentDefinition,
            .schemaDefinition, .schemaExtension, .typeDefinition, .typeExtension, .fieldDefinition,
            .inputValueDefinition, .enumValueDefinition
        ]
    ) { context in
        UniqueDirectivesPerLocationRule(signatures: context.directiveSignatures)
    }
}

final class UniqueDirectivesPerLocationRule: ValidationRuleVisitor {
    private let unique: Set<String>
    private var schemaDirectives: [String: Location] = [:]
    private var typeDirectives: [String: [String: Location]] = [:]

    init(signatures: [String: DirectiveSignature]) {
        unique = Set(signatures.compactMap { $0.value.isRepeatable ? nil : $0.key })
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .operationDefinition(let operation): check(operation.directives, context)
        case .variableDefinition(let definition): check(definition.directives, context)
        case .field(let field): check(field.directives, context)
        case .fragmentSpread(let spread): check(spread.directives, context)
        case .inlineFragment(let fragment): check(fragment.directives, context)
        case .fragmentDefinition(let fragment): check(fragment.directives, context)
        case .schemaDefinition(let schema), .schemaExtension(let schema):
            check(schema.directives, context, seen: &schemaDirectives)
        case .typeDefinition(let type), .typeExtension(let type):
            check(type.directives, context, seen: &typeDirectives[type.name.value, default: [:]])
        case .fieldDefinition(let field): check(field.directives, context)
        case .inputValueDefinition(let input): check(input.directives, context)
        case .enumValueDefinition(let value): check(value.directives, context)
        case .value, .directive, .argument, .type, .namedType: return .skipChildren
        default: break
        }
        return .continue
    }

    private func check(_ directives: [Directive], _ context: ValidationContext) {
        guard directives.count > 1 else { return }
        var seen: [String: Location] = [:]
        check(directives, context, seen: &seen)
    }

    private func check(_ directives: [Directive], _ context: ValidationContext, seen: inout [String: Location]) {
        for directive in directives where unique.contains(directive.name.value) {
            let name = directive.name.value
            if let first = seen[name] {
                context.report(
                    "The directive \"@\(name)\" can only be used once at this location.", at: [first, directive.location])
            } else {
                seen[name] = directive.location
            }
        }
    }
}
