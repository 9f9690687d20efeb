/// Builds a client-side schema from the result of the standard introspection query
/// (graphql-js `buildClientSchema`): the `data` object of the response, `{"__schema": …}`.
///
/// Every kind of type, descriptions, deprecations (also of arguments and input fields),
/// default values (parsed as literals and coerced), `specifiedByURL`, `isOneOf`, repeatable
/// directives and the schema description come back, so `printSchema` of the result prints the
/// server's SDL. Built-in scalars, directives the spec defines and the introspection types are
/// this library's own instances, as `buildSchema(sdl:)` would create them; custom scalars pass
/// values through (`PassThroughScalarCoercing`). Fields the query did not select (an older
/// server without `isRepeatable`, `specifiedByURL` or `isOneOf`) default to absent.
///
/// The schema is not checked against the type system rules; call `validateSchema(_:)` for that.
/// - Throws: `SchemaError` with `.invalidSchema` and one error naming where the introspection
///   result is malformed: a missing or mistyped entry (with its path, e.g.
///   `__schema.types[3].fields[0].type`), a reference to a type the result does not define or
///   of the wrong kind, or a default value that does not parse.
public func buildClientSchema(introspection: JSON) throws(SchemaError) -> Schema {
    var builder = ClientSchemaBuilder()
    do {
        return try builder.build(introspection)
    } catch {
        throw SchemaError(code: .invalidSchema, errors: [GraphQLError(message: error.message)])
    }
}

/// A problem in an introspection result, with the path to it.
private struct IntrospectionResultError: Error {
    let message: String
}

/// A JSON value with the path that leads to it, for error messages.
private struct Entry {
    let value: JSON
    let path: String

    func fail(_ problem: String) -> IntrospectionResultError {
        IntrospectionResultError(message: "Invalid introspection result: \(path) \(problem).")
    }

    func member(_ key: String) throws(IntrospectionResultError) -> Entry {
        guard case .object(let object) = value else { throw fail("is not an object") }
        return Entry(value: object[key] ?? .null, path: path.isEmpty ? key : path + "." + key)
    }

    /// The member `key` when present and not null.
    func optionalMember(_ key: String) throws(IntrospectionResultError) -> Entry? {
        let entry = try member(key)
        if case .null = entry.value { return nil }
        return entry
    }

    func string(_ key: String) throws(IntrospectionResultError) -> String {
        let entry = try member(key)
        guard case .string(let text) = entry.value else { throw entry.fail("must be a string") }
        return text
    }

    func optionalString(_ key: String) throws(IntrospectionResultError) -> String? {
        guard let entry = try optionalMember(key) else { return nil }
        guard case .string(let text) = entry.value else { throw entry.fail("must be a string or null") }
        return text
    }

    func optionalBool(_ key: String) throws(IntrospectionResultError) -> Bool? {
        guard let entry = try optionalMember(key) else { return nil }
        guard case .bool(let flag) = entry.value else { throw entry.fail("must be a boolean or null") }
        return flag
    }

    /// The elements of the list `key`; `nil` when it is absent or null.
    func optionalList(_ key: String) throws(IntrospectionResultError) -> [Entry]? {
        guard let entry = try optionalMember(key) else { return nil }
        guard case .array(let elements) = entry.value else { throw entry.fail("must be a list") }
        return elements.enumerated().map { Entry(value: $1, path: "\(entry.path)[\($0)]") }
    }

    func list(_ key: String) throws(IntrospectionResultError) -> [Entry] {
        guard let elements = try optionalList(key) else { throw try member(key).fail("is missing") }
        return elements
    }

    /// The deprecation reason of a field, argument, input field or enum value: the reason
    /// given, or the default one when only `isDeprecated` is set.
    func deprecationReason() throws(IntrospectionResultError) -> String? {
        let reason = try optionalString("deprecationReason")
        if try optionalBool("isDeprecated") == true { return reason ?? SchemaDirective.defaultDeprecationReason }
        return reason
    }
}

/// Creates the types of an introspection result first and their members second, so that
/// types may refer to each other in any order.
private struct ClientSchemaBuilder {
    private var types: [String: NamedType] = [:]
    private var inputValues: [InputValue] = []

    mutating func build(_ introspection: JSON) throws(IntrospectionResultError) -> Schema {
        let root = Entry(value: introspection, path: "")
        guard case .object = introspection, let schema = try root.optionalMember("__schema") else {
            throw IntrospectionResultError(message:
                "Invalid or incomplete introspection result: expected an object with \"__schema\"; pass the \"data\" of an introspection response that has no \"errors\".")
        }
        let typeEntries = try schema.list("types")
        var definitions: [(NamedType, Entry)] = []
        // Objects, interfaces, input objects and scalars first, unions (which need their
        // member objects) after them.
        for pass in [false, true] {
            for entry in typeEntries {
                let name = try entry.string("name")
                let kind = try entry.string("kind")
                guard (kind == "UNION") == pass, !Introspection.typeNames.contains(name) else { continue }
                guard types[name] == nil else { throw try entry.member("name").fail("repeats the type name \(name)") }
                let type = try makeType(entry, name: name, kind: kind)
                types[name] = type
                definitions.append((type, entry))
            }
        }
        for (type, entry) in definitions { try define(type, entry) }
        for inputValue in inputValues {
            if let literal = inputValue.defaultLiteral { inputValue.defaultValue = valueFromAST(literal, type: inputValue.type) }
        }

        var directives: [SchemaDirective] = []
        for entry in try schema.optionalList("directives") ?? [] { directives.append(try makeDirective(entry)) }
        let order = typeEntries.compactMap { try? $0.string("name") }
        let query = try rootType(schema, "queryType")
        let mutation = try rootType(schema, "mutationType")
        let subscription = try rootType(schema, "subscriptionType")
        let description = try schema.optionalString("description")
        do {
            return try Schema(
                query: query, mutation: mutation, subscription: subscription, types: order.compactMap { types[$0] },
                directives: directives, description: description)
        } catch {
            throw IntrospectionResultError(message: error.description)
        }
    }

    private mutating func makeType(_ entry: Entry, name: String, kind: String) throws(IntrospectionResultError) -> NamedType {
        let description = try entry.optionalString("description")
        switch kind {
        case "SCALAR":
            if let specified = ScalarType.specified.first(where: { $0.name == name }) { return .scalar(specified) }
            return .scalar(ScalarType(
                name: name, description: description, specifiedByURL: try entry.optionalString("specifiedByURL"),
                coercing: PassThroughScalarCoercing(name: name)))
        case "OBJECT": return .object(ObjectType(name: name, description: description))
        case "INTERFACE": return .interface(InterfaceType(name: name, description: description))
        case "INPUT_OBJECT":
            return .inputObject(InputObjectType(
                name: name, description: description, isOneOf: try entry.optionalBool("isOneOf") ?? false))
        case "ENUM":
            var values: [EnumValue] = []
            for value in try entry.list("enumValues") {
                values.append(EnumValue(
                    name: try value.string("name"), description: try value.optionalString("description"),
                    deprecationReason: try value.deprecationReason()))
            }
            return .enumType(EnumType(name: name, description: description, values: values))
        case "UNION":
            var members: [ObjectType] = []
            for member in try entry.list("possibleTypes") { members.append(try objectType(member)) }
            return .union(UnionType(name: name, description: description, types: members))
        default:
            throw try entry.member("kind").fail("is not a named type kind: \(kind)")
        }
    }

    private mutating func define(_ type: NamedType, _ entry: Entry) throws(IntrospectionResultError) {
        switch type {
        case .object(let object):
            object.define(fields: try fields(entry), interfaces: try interfaces(entry))
        case .interface(let interface):
            interface.define(fields: try fields(entry), interfaces: try interfaces(entry))
        case .inputObject(let input):
            var fields: [InputValue] = []
            for field in try entry.list("inputFields") { fields.append(try makeInputValue(field)) }
            input.define(fields: fields)
        case .scalar, .enumType, .union:
            break
        }
    }

    private mutating func fields(_ entry: Entry) throws(IntrospectionResultError) -> [SchemaField] {
        var fields: [SchemaField] = []
        for field in try entry.list("fields") {
            let typeEntry = try field.member("type")
            let type = try reference(typeEntry)
            guard type.isOutputType else { throw typeEntry.fail("must be an output type, not \(type)") }
            var arguments: [InputValue] = []
            for argument in try field.list("args") { arguments.append(try makeInputValue(argument)) }
            fields.append(SchemaField(
                name: try field.string("name"), description: try field.optionalString("description"),
                arguments: arguments, type: type, deprecationReason: try field.deprecationReason()))
        }
        return fields
    }

    private func interfaces(_ entry: Entry) throws(IntrospectionResultError) -> [InterfaceType] {
        // Servers from before interfaces could implement interfaces return null for interfaces.
        var interfaces: [InterfaceType] = []
        for reference in try entry.optionalList("interfaces") ?? [] {
            guard case .interface(let interface) = try namedType(reference) else {
                throw reference.fail("must refer to an interface type")
            }
            interfaces.append(interface)
        }
        return interfaces
    }

    private mutating func makeInputValue(_ entry: Entry) throws(IntrospectionResultError) -> InputValue {
        let typeEntry = try entry.member("type")
        let type = try reference(typeEntry)
        guard type.isInputType else { throw typeEntry.fail("must be an input type, not \(type)") }
        var literal: Value?
        if let defaultEntry = try entry.optionalMember("defaultValue") {
            guard case .string(let text) = defaultEntry.value else { throw defaultEntry.fail("must be a string or null") }
            do {
                literal = try Parser.parseConstValue(Source(body: text, name: "defaultValue"))
            } catch {
                throw defaultEntry.fail("is not a GraphQL value literal (\(error.message))")
            }
        }
        let inputValue = InputValue(
            name: try entry.string("name"), description: try entry.optionalString("description"), type: type,
            defaultLiteral: literal, deprecationReason: try entry.deprecationReason())
        inputValues.append(inputValue)
        return inputValue
    }

    private mutating func makeDirective(_ entry: Entry) throws(IntrospectionResultError) -> SchemaDirective {
        let name = try entry.string("name")
        var locations: [DirectiveLocation] = []
        for location in try entry.list("locations") {
            guard case .string(let text) = location.value, let parsed = DirectiveLocation(rawValue: text) else {
                throw location.fail("is not a directive location")
            }
            locations.append(parsed)
        }
        var arguments: [InputValue] = []
        for argument in try entry.list("args") { arguments.append(try makeInputValue(argument)) }
        let isRepeatable = try entry.optionalBool("isRepeatable") ?? false
        // The spec's directives are this library's own instances, so that the schema treats
        // them as built in (printSchema leaves them out), as long as the server's match them.
        if let specified = SchemaDirective.specified.first(where: { $0.name == name }),
           specified.locations == locations, specified.isRepeatable == isRepeatable,
           specified.arguments.map(\.name) == arguments.map(\.name) {
            return specified
        }
        return SchemaDirective(
            name: name, description: try entry.optionalString("description"), locations: locations,
            arguments: arguments, isRepeatable: isRepeatable)
    }

    private func rootType(_ schema: Entry, _ key: String) throws(IntrospectionResultError) -> ObjectType? {
        guard let entry = try schema.optionalMember(key) else { return nil }
        return try objectType(entry)
    }

    private func objectType(_ entry: Entry) throws(IntrospectionResultError) -> ObjectType {
        guard case .object(let object) = try namedType(entry) else { throw entry.fail("must refer to an object type") }
        return object
    }

    private func namedType(_ entry: Entry) throws(IntrospectionResultError) -> NamedType {
        let name = try entry.string("name")
        if let type = types[name] { return type }
        if let specified = ScalarType.specified.first(where: { $0.name == name }) { return .named(specified) }
        throw entry.fail("refers to the unknown type \(name); use the full introspection query to build a client schema")
    }

    /// A type reference (`kind`, `name`, `ofType`), however deeply wrapped.
    private func reference(_ entry: Entry) throws(IntrospectionResultError) -> SchemaType {
        switch try entry.string("kind") {
        case "LIST", "NON_NULL":
            guard let inner = try entry.optionalMember("ofType") else {
                throw entry.fail("is a wrapping type without ofType: the type is nested deeper than the query's typeDepth")
            }
            let innerType = try reference(inner)
            if try entry.string("kind") == "LIST" { return .list(innerType) }
            guard !innerType.isNonNull else { throw inner.fail("wraps a non-null type in a non-null type") }
            return .nonNull(innerType)
        default:
            return .named(try namedType(entry))
        }
    }
}

extension NamedType {
    fileprivate static func named(_ scalar: ScalarType) -> NamedType { .scalar(scalar) }
}
