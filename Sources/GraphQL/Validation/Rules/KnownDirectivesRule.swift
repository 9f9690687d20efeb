extension ValidationRule {
    /// Directives Are Defined and Directives Are In Valid Locations (spec 5.7.1, 5.7.2).
    public static let knownDirectives = ValidationRule(
        name: "KnownDirectives", visitsLeave: false, nodeKinds: [.directive]
    ) { context in
        KnownDirectivesRule(signatures: context.directiveSignatures)
    }
}

final class KnownDirectivesRule: ValidationRuleVisitor {
    private let signatures: [String: DirectiveSignature]

    init(signatures: [String: DirectiveSignature]) {
        self.signatures = signatures
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .directive(let directive) = node else { return .continue }
        let name = directive.name.value
        guard let signature = signatures[name] else {
            context.report("Unknown directive \"@\(name)\".", at: [directive.location])
            return .skipChildren
        }
        if let location = Self.location(context.ancestors), !signature.locations.contains(location.rawValue) {
            context.report("Directive \"@\(name)\" may not be used on \(location.rawValue).", at: [directive.location])
        }
        return .skipChildren
    }

    /// The location of a directive whose enclosing nodes are `ancestors` (the last one holds it).
    static func location(_ ancestors: [ASTNode]) -> DirectiveLocation? {
        guard let appliedTo = ancestors.last else { return nil }
        switch appliedTo {
        case .operationDefinition(let operation):
            switch operation.operation {
            case .query: return .query
            case .mutation: return .mutation
            case .subscription: return .subscription
            }
        case .field: return .field
        case .fragmentSpread: return .fragmentSpread
        case .inlineFragment: return .inlineFragment
        case .fragmentDefinition: return .fragmentDefinition
        case .variableDefinition: return .variableDefinition
        case .schemaDefinition, .schemaExtension: return .schema
        case .typeDefinition(let type), .typeExtension(let type):
            switch type {
            case .scalar: return .scalar
            case .object: return .object
            case .interface: return .interface
            case .union: return .union
            case .enumType: return .enumType
            case .inputObject: return .inputObject
            }
        case .fieldDefinition: return .fieldDefinition
        case .enumValueDefinition: return .enumValue
        case .inputValueDefinition:
            let owner = ancestors.count >= 2 ? ancestors[ancestors.count - 2] : nil
            switch owner {
            case .typeDefinition(.inputObject)?, .typeExtension(.inputObject)?: return .inputFieldDefinition
            default: return .argumentDefinition
            }
        default: return nil
        }
    }
}
