/// The schema types in effect at the current node of a walk over an executable document
/// (graphql-js `TypeInfo`): the parent composite type, the field definition and its output
/// type, the expected input type of a value, the argument, directive and enum value.
///
/// Call `enter(_:)` before a node's children and `leave(_:)` after them, for every node the
/// walk visits; the stacks stay balanced as long as both are called symmetrically. Every
/// getter answers `nil` where the document does not match the schema (an unknown field, an
/// argument the field does not define), so rules report each problem once, where it occurs.
public struct TypeInfo {
    /// The schema the document is checked against.
    public let schema: Schema
    private var typeStack: [SchemaType?] = []
    private var parentTypeStack: [NamedType?] = []
    private var inputTypeStack: [SchemaType?] = []
    private var fieldDefinitionStack: [SchemaField?] = []
    private var defaultValueStack: [Bool] = []

    /// The directive whose arguments are being visited.
    public private(set) var directive: SchemaDirective?
    /// The argument definition of the argument being visited.
    public private(set) var argument: InputValue?
    /// The enum value of the enum literal being visited.
    public private(set) var enumValue: EnumValue?

    /// Creates type information for walks over documents checked against `schema`.
    public init(schema: Schema) {
        self.schema = schema
        typeStack.reserveCapacity(32)
        parentTypeStack.reserveCapacity(32)
        fieldDefinitionStack.reserveCapacity(32)
        inputTypeStack.reserveCapacity(8)
        defaultValueStack.reserveCapacity(8)
    }

    /// The output type of the current field, operation or fragment.
    public var type: SchemaType? { typeStack.last ?? nil }
    /// The composite type whose selection set is being visited.
    public var parentType: NamedType? { parentTypeStack.last ?? nil }
    /// The type the current value is expected to have.
    public var inputType: SchemaType? { inputTypeStack.last ?? nil }
    /// The expected type of the value enclosing the current one (the list or input object).
    public var parentInputType: SchemaType? {
        inputTypeStack.count >= 2 ? inputTypeStack[inputTypeStack.count - 2] : nil
    }
    /// The definition of the current field.
    public var fieldDefinition: SchemaField? { fieldDefinitionStack.last ?? nil }
    /// Whether the argument or input field whose value is being visited declares a default
    /// value (a variable of nullable type may then be used where a non-null one is expected).
    public var hasDefaultValue: Bool { defaultValueStack.last ?? false }

    /// Updates the state for entering `node`.
    public mutating func enter(_ node: ASTNode) {
        switch node {
        case .selectionSet:
            let named = type?.namedType
            parentTypeStack.append(named.flatMap { $0.isCompositeType ? $0 : nil })
        case .field(let field):
            var definition: SchemaField?
            if let parentType { definition = schema.field(named: field.name.value, on: parentType) }
            fieldDefinitionStack.append(definition)
            typeStack.append(definition.flatMap { $0.type.isOutputType ? $0.type : nil })
        case .directive(let directive):
            self.directive = schema.directive(named: directive.name.value)
        case .operationDefinition(let operation):
            typeStack.append(schema.rootType(for: operation.operation).map { .named(.object($0)) })
        case .inlineFragment(let fragment):
            if let condition = fragment.typeCondition {
                typeStack.append(outputType(named: condition.value))
            } else {
                typeStack.append(type.flatMap { .named($0.namedType) })
            }
        case .fragmentDefinition(let fragment):
            typeStack.append(outputType(named: fragment.typeCondition.value))
        case .variableDefinition(let definition):
            let type = schema.schemaType(of: definition.type)
            inputTypeStack.append(type.flatMap { $0.isInputType ? $0 : nil })
        case .argument(let argumentNode):
            var definition: InputValue?
            if let directive {
                definition = directive.argument(named: argumentNode.name.value)
            } else if let fieldDefinition {
                definition = fieldDefinition.argument(named: argumentNode.name.value)
            }
            argument = definition
            defaultValueStack.append(definition?.hasDefaultValue ?? false)
            inputTypeStack.append(definition.flatMap { $0.type.isInputType ? $0.type : nil })
        case .value(let value):
            switch value.kind {
            case .list:
                var itemType: SchemaType?
                if let listType = inputType?.nullableType {
                    if case .list(let inner) = listType { itemType = inner } else { itemType = listType }
                }
                defaultValueStack.append(false)
                inputTypeStack.append(itemType.flatMap { $0.isInputType ? $0 : nil })
            case .enumValue(let name):
                if case .enumType(let enumType)? = inputType?.namedType {
                    enumValue = enumType.value(named: name)
                } else {
                    enumValue = nil
                }
            default:
                break
            }
        case .objectField(let objectField):
            var fieldDefinition: InputValue?
            if case .inputObject(let inputObject)? = inputType?.namedType {
                fieldDefinition = inputObject.field(named: objectField.name.value)
            }
            defaultValueStack.append(fieldDefinition?.hasDefaultValue ?? false)
            inputTypeStack.append(fieldDefinition.flatMap { $0.type.isInputType ? $0.type : nil })
        default:
            break
        }
    }

    /// Updates the state for leaving `node`; the exact mirror of `enter(_:)`.
    public mutating func leave(_ node: ASTNode) {
        switch node {
        case .selectionSet:
            parentTypeStack.removeLast()
        case .field:
            fieldDefinitionStack.removeLast()
            typeStack.removeLast()
        case .directive:
            directive = nil
        case .operationDefinition, .inlineFragment, .fragmentDefinition:
            typeStack.removeLast()
        case .variableDefinition:
            inputTypeStack.removeLast()
        case .argument:
            argument = nil
            defaultValueStack.removeLast()
            inputTypeStack.removeLast()
        case .value(let value):
            switch value.kind {
            case .list:
                defaultValueStack.removeLast()
                inputTypeStack.removeLast()
            case .enumValue:
                enumValue = nil
            default:
                break
            }
        case .objectField:
            defaultValueStack.removeLast()
            inputTypeStack.removeLast()
        default:
            break
        }
    }

    private func outputType(named name: String) -> SchemaType? {
        guard let type = schema.type(named: name), type.isOutputType else { return nil }
        return .named(type)
    }
}

extension Schema {
    /// The schema type a type reference of a document denotes (graphql-js `typeFromAST`);
    /// `nil` if its named type is not in the schema.
    public func schemaType(of reference: TypeReference) -> SchemaType? {
        switch reference {
        case .named(let name): type(named: name.value).map { .named($0) }
        case .list(let inner, _): schemaType(of: inner).map { .list($0) }
        case .nonNull(let inner, _): schemaType(of: inner).map { .nonNull($0) }
        }
    }
}
