/// Checks a schema against the type system rules of the spec (section 3, graphql-js
/// `validateSchema`) and returns every violation, each with the locations of the SDL nodes
/// involved when the schema was built from SDL; an empty array means the schema is valid.
///
/// Covered: a query root type exists and root types are distinct; names do not start with
/// `__`; objects and interfaces have fields of output types with arguments of input types;
/// interfaces are implemented correctly (fields present, covariant types, equal argument
/// types, extra arguments optional, transitive interfaces declared, no self-implementation
/// or repeats); unions have distinct members; enums have values; input objects have fields of
/// input types and no cycles through non-null fields; OneOf fields are nullable without
/// defaults; directives have locations and valid arguments; default values are valid for
/// their types; required arguments and input fields are not deprecated.
public func validateSchema(_ schema: Schema) -> [GraphQLError] {
    var validator = SchemaValidator(schema: schema)
    validator.validateRootTypes()
    validator.validateDirectives()
    validator.validateTypes()
    return validator.errors
}

extension Schema {
    /// Throws every violation of the type system rules; see `validateSchema(_:)`.
    public func validate() throws(SchemaError) {
        let errors = validateSchema(self)
        if !errors.isEmpty { throw SchemaError(code: .invalidSchema, errors: errors) }
    }
}

private struct SchemaValidator {
    let schema: Schema
    var errors: [GraphQLError] = []

    init(schema: Schema) { self.schema = schema }

    mutating func report(_ message: String, _ locations: [Location?]) {
        errors.append(GraphQLError(message: message, locations: locations.compactMap { $0?.sourceLocation }))
    }

    // MARK: - Root types

    mutating func validateRootTypes() {
        if schema.queryType == nil {
            report("Query root type must be provided.", [schema.definition?.location])
        }
        var operationsByRoot: [(root: ObjectType, operations: [OperationType])] = []
        for operation in OperationType.allCases {
            guard let root = schema.rootType(for: operation) else { continue }
            if let index = operationsByRoot.firstIndex(where: { $0.root === root }) {
                operationsByRoot[index].operations.append(operation)
            } else {
                operationsByRoot.append((root, [operation]))
            }
        }
        for (root, operations) in operationsByRoot where operations.count > 1 {
            report(
                "All root types must be different, \"\(root.name)\" type is used as \(andList(operations.map(\.rawValue))) root types.",
                operations.map(operationTypeLocation))
        }
    }

    private func operationTypeLocation(_ operation: OperationType) -> Location? {
        let nodes = (schema.definition.map { [$0] } ?? []) + schema.extensionDefinitions
        return nodes.lazy.flatMap(\.operationTypes).first { $0.operation == operation }?.type.location
    }

    // MARK: - Directives

    mutating func validateDirectives() {
        for directive in schema.directives {
            validateName(directive.name, directive.definition?.name.location)
            if directive.locations.isEmpty {
                report("Directive @\(directive.name) must include 1 or more locations.", [directive.definition?.location])
            }
            for argument in directive.arguments {
                validateArgument(argument, coordinate: "@\(directive.name)(\(argument.name):)")
            }
        }
    }

    // MARK: - Types

    mutating func validateTypes() {
        var cycleDetector = NonNullInputCycleDetector()
        for type in schema.types.values {
            if !type.isIntrospectionType {
                validateName(type.name, type.definition?.name.location)
            }
            switch type {
            case .object(let object):
                validateFields(type, object.fields)
                validateInterfaces(type, object.interfaces, object.fields)
            case .interface(let interface):
                validateFields(type, interface.fields)
                validateInterfaces(type, interface.interfaces, interface.fields)
            case .union(let union):
                validateUnion(union)
            case .enumType(let enumType):
                validateEnum(enumType)
            case .inputObject(let input):
                validateInputFields(input)
                cycleDetector.check(input)
            case .scalar:
                break
            }
        }
        errors += cycleDetector.errors
    }

    private mutating func validateName(_ name: String, _ location: Location?) {
        if name.hasPrefix("__") {
            report("Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [location])
        }
    }

    private func typeLocations(_ type: NamedType) -> [Location?] {
        [type.definition?.location] + type.extensionDefinitions.map(\.location)
    }

    private mutating func validateFields(_ type: NamedType, _ fields: OrderedMap<String, SchemaField>) {
        if fields.isEmpty {
            report("Type \(type.name) must define one or more fields.", typeLocations(type))
        }
        for field in fields.values {
            validateName(field.name, field.definition?.name.location)
            if !field.type.isOutputType {
                report("The type of \(type.name).\(field.name) must be Output Type but got: \(field.type).",
                       [field.definition?.type.location])
            }
            for argument in field.arguments {
                validateArgument(argument, coordinate: "\(type.name).\(field.name)(\(argument.name):)")
            }
        }
    }

    private mutating func validateArgument(_ argument: InputValue, coordinate: String) {
        validateName(argument.name, argument.definition?.name.location)
        if !argument.type.isInputType {
            report("The type of \(coordinate) must be Input Type but got: \(argument.type).", [argument.definition?.type.location])
        }
        if argument.isRequired, argument.isDeprecated {
            report("Required argument \(coordinate) cannot be deprecated.",
                   [deprecatedDirectiveLocation(argument.definition?.directives), argument.definition?.type.location])
        }
        validateDefaultValue(argument, coordinate: coordinate)
    }

    private mutating func validateDefaultValue(_ inputValue: InputValue, coordinate: String) {
        guard inputValue.type.isInputType else { return }
        let location = inputValue.definition?.defaultValue?.location
        let json: JSON
        if let literal = inputValue.defaultLiteral {
            guard valueFromAST(literal, type: inputValue.type) == nil else { return }
            guard let untyped = literal.untypedJSON(variables: [:]) else { return }
            json = untyped
        } else if let defaultValue = inputValue.defaultValue {
            json = defaultValue
        } else {
            return
        }
        var problems: [InputCoercionError] = []
        _ = coerceInputValue(json, type: inputValue.type) { problems.append($0) }
        if problems.isEmpty, let literal = inputValue.defaultLiteral {
            report("\(coordinate) has invalid default value: Expected value of type \"\(inputValue.type)\", found \(Printer.print(literal)).",
                   [location])
        }
        for problem in problems {
            let path = problem.path.isEmpty ? "" : " at \"value\(problem.printedPath)\""
            report("\(coordinate) has invalid default value\(path): \(problem.message)", [location])
        }
    }

    // MARK: Interfaces

    private mutating func validateInterfaces(
        _ type: NamedType, _ interfaces: [InterfaceType], _ fields: OrderedMap<String, SchemaField>
    ) {
        var seen: Set<ObjectIdentifier> = []
        for interface in interfaces {
            if case .interface(let selfInterface) = type, selfInterface === interface {
                report("Type \(type.name) cannot implement itself because it would create a circular reference.",
                       implementsLocations(type, interface))
                continue
            }
            guard seen.insert(ObjectIdentifier(interface)).inserted else {
                report("Type \(type.name) can only implement \(interface.name) once.", implementsLocations(type, interface))
                continue
            }
            validateImplementsAncestors(type, interfaces, interface)
            validateImplements(type, fields, interface)
        }
    }

    private mutating func validateImplementsAncestors(_ type: NamedType, _ interfaces: [InterfaceType], _ interface: InterfaceType) {
        for transitive in interface.interfaces where !interfaces.contains(where: { $0 === transitive }) {
            let locations = implementsLocations(.interface(interface), transitive) + implementsLocations(type, interface)
            if .interface(transitive) == type {
                report("Type \(type.name) cannot implement \(interface.name) because it would create a circular reference.", locations)
            } else {
                report("Type \(type.name) must implement \(transitive.name) because it is implemented by \(interface.name).", locations)
            }
        }
    }

    private mutating func validateImplements(_ type: NamedType, _ fields: OrderedMap<String, SchemaField>, _ interface: InterfaceType) {
        for interfaceField in interface.fields.values {
            let interfaceFieldName = "\(interface.name).\(interfaceField.name)"
            guard let field = fields[interfaceField.name] else {
                report("Interface field \(interfaceFieldName) expected but \(type.name) does not provide it.",
                       [interfaceField.definition?.location] + typeLocations(type))
                continue
            }
            let fieldName = "\(type.name).\(field.name)"
            if !schema.isTypeSubType(field.type, of: interfaceField.type) {
                report("Interface field \(interfaceFieldName) expects type \(interfaceField.type) but \(fieldName) is type \(field.type).",
                       [interfaceField.definition?.type.location, field.definition?.type.location])
            }
            for interfaceArgument in interfaceField.arguments {
                let interfaceArgumentName = "\(interfaceFieldName)(\(interfaceArgument.name):)"
                guard let argument = field.argument(named: interfaceArgument.name) else {
                    report("Interface field argument \(interfaceArgumentName) expected but \(fieldName) does not provide it.",
                           [interfaceArgument.definition?.location, field.definition?.location])
                    continue
                }
                if argument.type != interfaceArgument.type {
                    report("Interface field argument \(interfaceArgumentName) expects type \(interfaceArgument.type) but \(fieldName)(\(argument.name):) is type \(argument.type).",
                           [interfaceArgument.definition?.type.location, argument.definition?.type.location])
                }
            }
            for argument in field.arguments where argument.isRequired && interfaceField.argument(named: argument.name) == nil {
                report("Argument \"\(fieldName)(\(argument.name):)\" must not be required type \"\(argument.type)\" if not provided by the Interface field \"\(interfaceFieldName)\".",
                       [argument.definition?.location, interfaceField.definition?.location])
            }
        }
    }

    private func implementsLocations(_ type: NamedType, _ interface: InterfaceType) -> [Location?] {
        let names: [Name]
        switch type {
        case .object(let object):
            names = ((object.definition.map { [$0] } ?? []) + object.extensionDefinitions).flatMap(\.interfaces)
        case .interface(let implementing):
            names = ((implementing.definition.map { [$0] } ?? []) + implementing.extensionDefinitions).flatMap(\.interfaces)
        default:
            names = []
        }
        return names.filter { $0.value == interface.name }.map(\.location)
    }

    // MARK: Unions, enums, input objects

    private mutating func validateUnion(_ union: UnionType) {
        if union.types.isEmpty {
            report("Union type \(union.name) must define one or more member types.", typeLocations(.union(union)))
        }
        var seen: Set<ObjectIdentifier> = []
        for member in union.types where !seen.insert(ObjectIdentifier(member)).inserted {
            let nodes = ((union.definition.map { [$0] } ?? []) + union.extensionDefinitions).flatMap(\.types)
            report("Union type \(union.name) can only include type \(member.name) once.",
                   nodes.filter { $0.value == member.name }.map(\.location))
        }
    }

    private mutating func validateEnum(_ enumType: EnumType) {
        if enumType.values.isEmpty {
            report("Enum type \(enumType.name) must define one or more values.", typeLocations(.enumType(enumType)))
        }
        for value in enumType.values.values {
            validateName(value.name, value.definition?.name.location)
            if value.name == "true" || value.name == "false" || value.name == "null" {
                report("Enum type \(enumType.name) cannot include value: \(value.name).", [value.definition?.name.location])
            }
        }
    }

    private mutating func validateInputFields(_ input: InputObjectType) {
        if input.fields.isEmpty {
            report("Input Object type \(input.name) must define one or more fields.", typeLocations(.inputObject(input)))
        }
        for field in input.fields.values {
            let coordinate = "\(input.name).\(field.name)"
            validateName(field.name, field.definition?.name.location)
            if !field.type.isInputType {
                report("The type of \(coordinate) must be Input Type but got: \(field.type).", [field.definition?.type.location])
            }
            if field.isRequired, field.isDeprecated {
                report("Required input field \(coordinate) cannot be deprecated.",
                       [deprecatedDirectiveLocation(field.definition?.directives), field.definition?.type.location])
            }
            validateDefaultValue(field, coordinate: coordinate)
            if input.isOneOf {
                if field.type.isNonNull {
                    report("OneOf input field \(coordinate) must be nullable.", [field.definition?.type.location])
                }
                if field.hasDefaultValue {
                    report("OneOf input field \(coordinate) cannot have a default value.", [field.definition?.location])
                }
            }
        }
    }

    private func deprecatedDirectiveLocation(_ directives: [Directive]?) -> Location? {
        directives?.first { $0.name.value == "deprecated" }?.location
    }
}

/// Finds input objects that reference themselves through non-null fields, which no finite
/// value could satisfy (spec 3.10, "Input Object Type Validation"), depth first as graphql-js
/// does, reporting each cycle once.
private struct NonNullInputCycleDetector {
    var errors: [GraphQLError] = []
    private var visited: Set<ObjectIdentifier> = []
    private var fieldPath: [(name: String, location: Location?)] = []
    private var pathIndexByType: [ObjectIdentifier: Int] = [:]

    mutating func check(_ input: InputObjectType) {
        guard visited.insert(ObjectIdentifier(input)).inserted else { return }
        pathIndexByType[ObjectIdentifier(input)] = fieldPath.count
        for field in input.fields.values {
            guard case .nonNull(.named(.inputObject(let fieldType))) = field.type else { continue }
            fieldPath.append(("\(input.name).\(field.name)", field.definition?.location))
            if let cycleIndex = pathIndexByType[ObjectIdentifier(fieldType)] {
                let cycle = fieldPath[cycleIndex...]
                let via = cycle.count > 1 ? "via the non-null fields:" : "in the non-null field"
                errors.append(GraphQLError(
                    message: "Invalid circular reference. The Input Object \(fieldType.name) references itself \(via) \(cycle.map(\.name).joined(separator: ", ")).",
                    locations: cycle.compactMap { $0.location?.sourceLocation }))
            } else {
                check(fieldType)
            }
            fieldPath.removeLast()
        }
        pathIndexByType[ObjectIdentifier(input)] = nil
    }
}

/// `a`, `a and b`, `a, b, and c`.
func andList(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    case 2: return items[0] + " and " + items[1]
    default: return items.dropLast().joined(separator: ", ") + ", and " + items.last!
    }
}
