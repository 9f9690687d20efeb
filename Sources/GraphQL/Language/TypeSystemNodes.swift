// Syntax nodes of type-system definitions and extensions (spec section 3).

/// `schema @dir { query: Query … }`, also used for `extend schema`.
public final class SchemaDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The root operation types, in source order.
    public let operationTypes: [OperationTypeDefinition]
    /// Where the definition lies.
    public let location: Location

    /// Creates a schema definition or extension.
    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [OperationTypeDefinition], location: Location
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.location = location
    }
}

/// `query: TypeName` inside a schema definition.
public struct OperationTypeDefinition: Sendable {
    /// The operation kind.
    public let operation: OperationType
    /// The root type's name.
    public let type: Name
    /// Where the entry lies.
    public let location: Location

    /// Creates a root operation type entry.
    public init(operation: OperationType, type: Name, location: Location) {
        self.operation = operation
        self.type = type
        self.location = location
    }
}

/// A named type definition or extension.
public enum TypeDefinition: Sendable {
    /// `scalar Name @dir`.
    case scalar(ScalarTypeDefinition)
    /// `type Name implements I & J @dir { fields }`.
    case object(ObjectTypeDefinition)
    /// `interface Name implements I @dir { fields }`.
    case interface(InterfaceTypeDefinition)
    /// `union Name @dir = A | B`.
    case union(UnionTypeDefinition)
    /// `enum Name @dir { VALUES }`.
    case enumType(EnumTypeDefinition)
    /// `input Name @dir { fields }`.
    case inputObject(InputObjectTypeDefinition)

    /// The type's name.
    public var name: Name {
        switch self {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enumType(let node): node.name
        case .inputObject(let node): node.name
        }
    }

    /// The type's description; always `nil` for an extension.
    public var description: StringValue? {
        switch self {
        case .scalar(let node): node.description
        case .object(let node): node.description
        case .interface(let node): node.description
        case .union(let node): node.description
        case .enumType(let node): node.description
        case .inputObject(let node): node.description
        }
    }

    /// The directives on the type (constant arguments only).
    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enumType(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    /// Where the definition lies.
    public var location: Location {
        switch self {
        case .scalar(let node): node.location
        case .object(let node): node.location
        case .interface(let node): node.location
        case .union(let node): node.location
        case .enumType(let node): node.location
        case .inputObject(let node): node.location
        }
    }
}

/// `scalar Name @dir`.
public final class ScalarTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// Where the definition lies.
    public let location: Location

    /// Creates a scalar type definition or extension.
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], location: Location) {
        self.description = description
        self.name = name
        self.directives = directives
        self.location = location
    }
}

/// `type Name implements I & J @dir { fields }`.
public final class ObjectTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The names of the implemented interfaces.
    public let interfaces: [Name]
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The field definitions, in source order.
    public let fields: [FieldDefinition]
    /// Where the definition lies.
    public let location: Location

    /// Creates an object type definition or extension.
    public init(
        description: StringValue? = nil, name: Name, interfaces: [Name] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.location = location
    }
}

/// `interface Name implements I @dir { fields }`.
public final class InterfaceTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The names of the implemented interfaces.
    public let interfaces: [Name]
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The field definitions, in source order.
    public let fields: [FieldDefinition]
    /// Where the definition lies.
    public let location: Location

    /// Creates an interface type definition or extension.
    public init(
        description: StringValue? = nil, name: Name, interfaces: [Name] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.location = location
    }
}

/// `union Name @dir = A | B`.
public final class UnionTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The names of the member types.
    public let types: [Name]
    /// Where the definition lies.
    public let location: Location

    /// Creates a union type definition or extension.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [Name] = [],
        location: Location
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.types = types
        self.location = location
    }
}

/// `enum Name @dir { VALUES }`.
public final class EnumTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The value definitions, in source order.
    public let values: [EnumValueDefinition]
    /// Where the definition lies.
    public let location: Location

    /// Creates an enum type definition or extension.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        values: [EnumValueDefinition] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.values = values
        self.location = location
    }
}

/// `input Name @dir { fields }`.
public final class InputObjectTypeDefinition: Sendable {
    /// The description; always `nil` for an extension.
    public let description: StringValue?
    /// The type's name.
    public let name: Name
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// The input field definitions, in source order.
    public let fields: [InputValueDefinition]
    /// Where the definition lies.
    public let location: Location

    /// Creates an input object type definition or extension.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.fields = fields
        self.location = location
    }
}

/// A field of an object or interface type: `"description" name(args): Type @dir`.
public struct FieldDefinition: Sendable {
    /// The description.
    public let description: StringValue?
    /// The field's name.
    public let name: Name
    /// The argument definitions, in source order.
    public let arguments: [InputValueDefinition]
    /// The field's type.
    public let type: TypeReference
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// Where the definition lies.
    public let location: Location

    /// Creates a field definition.
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        type: TypeReference, directives: [Directive] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.type = type
        self.directives = directives
        self.location = location
    }
}

/// An argument or input field definition: `"description" name: Type = default @dir`.
public struct InputValueDefinition: Sendable {
    /// The description.
    public let description: StringValue?
    /// The argument's or field's name.
    public let name: Name
    /// The declared type.
    public let type: TypeReference
    /// The default value, a constant.
    public let defaultValue: Value?
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// Where the definition lies.
    public let location: Location

    /// Creates an input value definition.
    public init(
        description: StringValue? = nil, name: Name, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], location: Location
    ) {
        self.description = description
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.location = location
    }
}

/// A value of an enum type: `"description" NAME @dir`.
public struct EnumValueDefinition: Sendable {
    /// The description.
    public let description: StringValue?
    /// The value's name (never `true`, `false` or `null`).
    public let name: Name
    /// The directives (constant arguments only).
    public let directives: [Directive]
    /// Where the definition lies.
    public let location: Location

    /// Creates an enum value definition.
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], location: Location) {
        self.description = description
        self.name = name
        self.directives = directives
        self.location = location
    }
}

/// The places a directive may be used (spec: DirectiveLocation).
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    /// On a query operation.
    case query = "QUERY"
    /// On a mutation operation.
    case mutation = "MUTATION"
    /// On a subscription operation.
    case subscription = "SUBSCRIPTION"
    /// On a field selection.
    case field = "FIELD"
    /// On a fragment definition.
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    /// On a fragment spread.
    case fragmentSpread = "FRAGMENT_SPREAD"
    /// On an inline fragment.
    case inlineFragment = "INLINE_FRAGMENT"
    /// On a variable definition.
    case variableDefinition = "VARIABLE_DEFINITION"
    /// On a schema definition or extension.
    case schema = "SCHEMA"
    /// On a scalar type.
    case scalar = "SCALAR"
    /// On an object type.
    case object = "OBJECT"
    /// On a field definition.
    case fieldDefinition = "FIELD_DEFINITION"
    /// On an argument definition.
    case argumentDefinition = "ARGUMENT_DEFINITION"
    /// On an interface type.
    case interface = "INTERFACE"
    /// On a union type.
    case union = "UNION"
    /// On an enum type.
    case enumType = "ENUM"
    /// On an enum value.
    case enumValue = "ENUM_VALUE"
    /// On an input object type.
    case inputObject = "INPUT_OBJECT"
    /// On an input field definition.
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}

/// `"description" directive @name(args) repeatable on LOCATION | …`.
public final class DirectiveDefinition: Sendable {
    /// The description.
    public let description: StringValue?
    /// The directive's name without `@`.
    public let name: Name
    /// The argument definitions, in source order.
    public let arguments: [InputValueDefinition]
    /// Whether the directive may appear more than once at one location.
    public let isRepeatable: Bool
    /// The permitted locations as written; the parser accepts only known location names.
    public let locations: [Name]
    /// Where the definition lies.
    public let location: Location

    /// Creates a directive definition.
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        isRepeatable: Bool = false, locations: [Name], location: Location
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.locations = locations
        self.location = location
    }
}
