extension ASTNode {
    /// The kind of a node (its case, without the payload), e.g. for a validation rule to say
    /// which nodes it visits.
    public enum Kind: Int, CaseIterable, Hashable, Sendable {
        case document, operationDefinition, variableDefinition, selectionSet, field, argument
        case fragmentSpread, inlineFragment, fragmentDefinition, value, objectField, directive
        case type, namedType, schemaDefinition, schemaExtension, operationTypeDefinition
        case typeDefinition, typeExtension, fieldDefinition, inputValueDefinition
        case enumValueDefinition, directiveDefinition
    }

    /// The node's kind.
    public var kind: Kind {
        switch self {
        case .document: .document
        case .operationDefinition: .operationDefinition
        case .variableDefinition: .variableDefinition
        case .selectionSet: .selectionSet
        case .field: .field
        case .argument: .argument
        case .fragmentSpread: .fragmentSpread
        case .inlineFragment: .inlineFragment
        case .fragmentDefinition: .fragmentDefinition
        case .value: .value
        case .objectField: .objectField
        case .directive: .directive
        case .type: .type
        case .namedType: .namedType
        case .schemaDefinition: .schemaDefinition
        case .schemaExtension: .schemaExtension
        case .operationTypeDefinition: .operationTypeDefinition
        case .typeDefinition: .typeDefinition
        case .typeExtension: .typeExtension
        case .fieldDefinition: .fieldDefinition
        case .inputValueDefinition: .inputValueDefinition
        case .enumValueDefinition: .enumValueDefinition
        case .directiveDefinition: .directiveDefinition
        }
    }
}
