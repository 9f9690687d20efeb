/// The introspection system of a schema (spec 4.2): the `__Schema`, `__Type`, `__Field`,
/// `__InputValue`, `__EnumValue`, `__Directive`, `__TypeKind` and `__DirectiveLocation` types
/// and the meta-fields `__schema`, `__type(name:)` and `__typename`.
///
/// Every `Schema` creates its own instances (fields carry per-schema indices), reachable
/// through `Schema.introspection`. This layer only defines the types; resolving them is the
/// executor's job, keyed on these objects or their field indices.
public struct Introspection: Sendable {
    /// `__Schema`.
    public let schemaType: ObjectType
    /// `__Type`.
    public let typeType: ObjectType
    /// `__Field`.
    public let fieldType: ObjectType
    /// `__InputValue`.
    public let inputValueType: ObjectType
    /// `__EnumValue`.
    public let enumValueType: ObjectType
    /// `__Directive`.
    public let directiveType: ObjectType
    /// `__TypeKind`.
    public let typeKindType: EnumType
    /// `__DirectiveLocation`.
    public let directiveLocationType: EnumType
    /// `__schema: __Schema!`, selectable on the query root type.
    public let schemaField: SchemaField
    /// `__type(name: String!): __Type`, selectable on the query root type.
    public let typeField: SchemaField
    /// `__typename: String!`, selectable on every composite type.
    public let typeNameField: SchemaField

    /// The names of the introspection types.
    public static let typeNames: Set<String> = [
        "__Schema", "__Type", "__Field", "__InputValue", "__EnumValue", "__Directive", "__TypeKind",
        "__DirectiveLocation",
    ]

    /// The introspection types, in the order they are added to a schema's type map.
    public var types: [NamedType] {
        [.object(schemaType), .object(directiveType), .enumType(directiveLocationType), .object(typeType),
         .object(fieldType), .object(inputValueType), .object(enumValueType), .enumType(typeKindType)]
    }

    /// The meta-fields, in the order they receive field indices.
    public var metaFields: [SchemaField] { [schemaField, typeField, typeNameField] }

    /// Creates a fresh set of introspection types.
    init() {
        let string = SchemaType.named(.scalar(.string))
        let nonNullString = SchemaType.nonNull(string)
        let boolean = SchemaType.named(.scalar(.boolean))
        let nonNullBoolean = SchemaType.nonNull(boolean)
        func field(_ name: String, _ type: SchemaType, _ description: String? = nil, _ arguments: [InputValue] = []) -> SchemaField {
            SchemaField(name: name, description: description, arguments: arguments, type: type)
        }
        func includeDeprecated() -> InputValue {
            InputValue(name: "includeDeprecated", type: nonNullBoolean, defaultValue: .bool(false))
        }
        func listOf(_ type: ObjectType) -> SchemaType { .list(.nonNull(.named(.object(type)))) }

        typeKindType = EnumType(
            name: "__TypeKind", description: "An enum describing what kind of type a given `__Type` is.",
            values: [
                EnumValue(name: "SCALAR", description: "Indicates this type is a scalar."),
                EnumValue(name: "OBJECT", description: "Indicates this type is an object. `fields` and `interfaces` are valid fields."),
                EnumValue(name: "INTERFACE", description: "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."),
                EnumValue(name: "UNION", description: "Indicates this type is a union. `possibleTypes` is a valid field."),
                EnumValue(name: "ENUM", description: "Indicates this type is an enum. `enumValues` is a valid field."),
                EnumValue(name: "INPUT_OBJECT", description: "Indicates this type is an input object. `inputFields` is a valid field."),
                EnumValue(name: "LIST", description: "Indicates this type is a list. `ofType` is a valid field."),
                EnumValue(name: "NON_NULL", description: "Indicates this type is a non-null. `ofType` is a valid field."),
            ])
        directiveLocationType = EnumType(
            name: "__DirectiveLocation",
            description: "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
            values: DirectiveLocation.allCases.map { EnumValue(name: $0.rawValue, description: Self.describe($0)) })

        schemaType = ObjectType(
            name: "__Schema",
            description: "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.")
        typeType = ObjectType(
            name: "__Type",
            description: "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types.")
        fieldType = ObjectType(
            name: "__Field",
            description: "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.")
        inputValueType = ObjectType(
            name: "__InputValue",
            description: "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.")
        enumValueType = ObjectType(
            name: "__EnumValue",
            description: "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string.")
        directiveType = ObjectType(
            name: "__Directive",
            description: "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor.")

        let typeRef = SchemaType.named(.object(typeType))
        schemaType.define(fields: [
            field("description", string),
            field("types", .nonNull(listOf(typeType)), "A list of all types supported by this server."),
            field("queryType", .nonNull(typeRef), "The type that query operations will be rooted at."),
            field("mutationType", typeRef, "If this server supports mutation, the type that mutation operations will be rooted at."),
            field("subscriptionType", typeRef, "If this server support subscription, the type that subscription operations will be rooted at."),
            field("directives", .nonNull(listOf(directiveType)), "A list of all directives supported by this server."),
        ], interfaces: [])
        typeType.define(fields: [
            field("kind", .nonNull(.named(.enumType(typeKindType)))),
            field("name", string),
            field("description", string),
            field("specifiedByURL", string),
            field("fields", listOf(fieldType), nil, [includeDeprecated()]),
            field("interfaces", listOf(typeType)),
            field("possibleTypes", listOf(typeType)),
            field("enumValues", listOf(enumValueType), nil, [includeDeprecated()]),
            field("inputFields", listOf(inputValueType), nil, [includeDeprecated()]),
            field("ofType", typeRef),
            field("isOneOf", boolean),
        ], interfaces: [])
        fieldType.define(fields: [
            field("name", nonNullString),
            field("description", string),
            field("args", .nonNull(listOf(inputValueType)), nil, [includeDeprecated()]),
            field("type", .nonNull(typeRef)),
            field("isDeprecated", nonNullBoolean),
            field("deprecationReason", string),
        ], interfaces: [])
        inputValueType.define(fields: [
            field("name", nonNullString),
            field("description", string),
            field("type", .nonNull(typeRef)),
            field("defaultValue", string, "A GraphQL-formatted string representing the default value for this input value."),
            field("isDeprecated", nonNullBoolean),
            field("deprecationReason", string),
        ], interfaces: [])
        enumValueType.define(fields: [
            field("name", nonNullString),
            field("description", string),
            field("isDeprecated", nonNullBoolean),
            field("deprecationReason", string),
        ], interfaces: [])
        directiveType.define(fields: [
            field("name", nonNullString),
            field("description", string),
            field("isRepeatable", nonNullBoolean),
            field("locations", .nonNull(.list(.nonNull(.named(.enumType(directiveLocationType)))))),
            field("args", .nonNull(listOf(inputValueType)), nil, [includeDeprecated()]),
        ], interfaces: [])

        schemaField = field("__schema", .nonNull(.named(.object(schemaType))), "Access the current type schema of this server.")
        typeField = field(
            "__type", typeRef, "Request the type information of a single type.",
            [InputValue(name: "name", type: nonNullString)])
        typeNameField = field("__typename", nonNullString, "The name of the current Object type at runtime.")
    }

    private static func describe(_ location: DirectiveLocation) -> String {
        switch location {
        case .query: "Location adjacent to a query operation."
        case .mutation: "Location adjacent to a mutation operation."
        case .subscription: "Location adjacent to a subscription operation."
        case .field: "Location adjacent to a field."
        case .fragmentDefinition: "Location adjacent to a fragment definition."
        case .fragmentSpread: "Location adjacent to a fragment spread."
        case .inlineFragment: "Location adjacent to an inline fragment."
        case .variableDefinition: "Location adjacent to a variable definition."
        case .schema: "Location adjacent to a schema definition."
        case .scalar: "Location adjacent to a scalar definition."
        case .object: "Location adjacent to an object type definition."
        case .fieldDefinition: "Location adjacent to a field definition."
        case .argumentDefinition: "Location adjacent to an argument definition."
        case .interface: "Location adjacent to an interface definition."
        case .union: "Location adjacent to a union definition."
        case .enumType: "Location adjacent to an enum definition."
        case .enumValue: "Location adjacent to an enum value definition."
        case .inputObject: "Location adjacent to an input object type definition."
        case .inputFieldDefinition: "Location adjacent to an input object field definition."
        }
    }
}
