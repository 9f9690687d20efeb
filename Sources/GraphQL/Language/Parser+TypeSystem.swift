// The type-system grammar (spec section 3): definitions, extensions and descriptions.

extension Parser {
    func peekDescription() -> Bool { peek(.string) || peek(.blockString) }

    mutating func parseDescription() throws(GraphQLError) -> StringValue? {
        peekDescription() ? try parseStringLiteral() : nil
    }

    mutating func parseSchemaDefinition() throws(GraphQLError) -> SchemaDefinition {
        let start = token.location
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(isConstant: true)
        _ = try expect(.braceLeft)
        var operationTypes: [OperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseOperationTypeDefinition())
        } while try !expectOptional(.braceRight)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes,
            location: location(from: start))
    }

    mutating func parseOperationTypeDefinition() throws(GraphQLError) -> OperationTypeDefinition {
        let start = token.location
        let operation = try parseOperationType()
        _ = try expect(.colon)
        let type = try parseName()
        return OperationTypeDefinition(operation: operation, type: type, location: location(from: start))
    }

    /// A type definition, or with `isExtension` the part of a type extension after `extend`.
    mutating func parseTypeDefinition(start: Location? = nil, isExtension: Bool = false) throws(GraphQLError) -> TypeDefinition {
        let start = start ?? token.location
        let description = isExtension ? nil : try parseDescription()
        let keyword = try expect(.name)
        let name = try parseName()
        switch keyword.value {
        case "scalar":
            let directives = try parseDirectives(isConstant: true)
            if isExtension && directives.isEmpty { throw unexpected() }
            return .scalar(
                ScalarTypeDefinition(
                    description: description, name: name, directives: directives, location: location(from: start)))
        case "type", "interface":
            let interfaces = try parseImplementsInterfaces()
            let directives = try parseDirectives(isConstant: true)
            let fields = try parseFieldsDefinition()
            if isExtension && interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
            if keyword.value == "type" {
                return .object(
                    ObjectTypeDefinition(
                        description: description, name: name, interfaces: interfaces, directives: directives,
                        fields: fields, location: location(from: start)))
            }
            return .interface(
                InterfaceTypeDefinition(
                    description: description, name: name, interfaces: interfaces, directives: directives,
                    fields: fields, location: location(from: start)))
        case "union":
            let directives = try parseDirectives(isConstant: true)
            var types: [Name] = []
            if try expectOptional(.equals) {
                _ = try expectOptional(.pipe)
                repeat {
                    types.append(try parseName())
                } while try expectOptional(.pipe)
            }
            if isExtension && directives.isEmpty && types.isEmpty { throw unexpected() }
            return .union(
                UnionTypeDefinition(
                    description: description, name: name, directives: directives, types: types,
                    location: location(from: start)))
        case "enum":
            let directives = try parseDirectives(isConstant: true)
            var values: [EnumValueDefinition] = []
            if try expectOptional(.braceLeft) {
                repeat {
                    values.append(try parseEnumValueDefinition())
                } while try !expectOptional(.braceRight)
            }
            if isExtension && directives.isEmpty && values.isEmpty { throw unexpected() }
            return .enumType(
                EnumTypeDefinition(
                    description: description, name: name, directives: directives, values: values,
                    location: location(from: start)))
        default: // "input": the callers dispatch on the keyword
            let directives = try parseDirectives(isConstant: true)
            var fields: [InputValueDefinition] = []
            if try expectOptional(.braceLeft) {
                repeat {
                    fields.append(try parseInputValueDefinition())
                } while try !expectOptional(.braceRight)
            }
            if isExtension && directives.isEmpty && fields.isEmpty { throw unexpected() }
            return .inputObject(
                InputObjectTypeDefinition(
                    description: description, name: name, directives: directives, fields: fields,
                    location: location(from: start)))
        }
    }

    mutating func parseImplementsInterfaces() throws(GraphQLError) -> [Name] {
        guard try expectOptionalKeyword("implements") else { return [] }
        _ = try expectOptional(.ampersand)
        var interfaces: [Name] = []
        repeat {
            interfaces.append(try parseName())
        } while try expectOptional(.ampersand)
        return interfaces
    }

    mutating func parseFieldsDefinition() throws(GraphQLError) -> [FieldDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        var fields: [FieldDefinition] = []
        repeat {
            let start = token.location
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentDefinitions()
            _ = try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(isConstant: true)
            fields.append(
                FieldDefinition(
                    description: description, name: name, arguments: arguments, type: type, directives: directives,
                    location: location(from: start)))
        } while try !expectOptional(.braceRight)
        return fields
    }

    mutating func parseArgumentDefinitions() throws(GraphQLError) -> [InputValueDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        var arguments: [InputValueDefinition] = []
        repeat {
            arguments.append(try parseInputValueDefinition())
        } while try !expectOptional(.parenRight)
        return arguments
    }

    mutating func parseInputValueDefinition() throws(GraphQLError) -> InputValueDefinition {
        let start = token.location
        let description = try parseDescription()
        let name = try parseName()
        _ = try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConstant: true) : nil
        let directives = try parseDirectives(isConstant: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            location: location(from: start))
    }

    mutating func parseEnumValueDefinition() throws(GraphQLError) -> EnumValueDefinition {
        let start = token.location
        let description = try parseDescription()
        if token.kind == .name, let value = token.value, value == "true" || value == "false" || value == "null" {
            throw Parser.syntaxError("\(token) is reserved and cannot be used for an enum value.", at: token.location)
        }
        let name = try parseName()
        let directives = try parseDirectives(isConstant: true)
        return EnumValueDefinition(
            description: description, name: name, directives: directives, location: location(from: start))
    }

    mutating func parseDirectiveDefinition() throws(GraphQLError) -> DirectiveDefinition {
        let start = token.location
        let description = try parseDescription()
        try expectKeyword("directive")
        _ = try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let isRepeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        _ = try expectOptional(.pipe)
        var locations: [Name] = []
        repeat {
            let locationToken = token
            let locationName = try parseName()
            guard DirectiveLocation(rawValue: locationName.value) != nil else { throw unexpected(locationToken) }
            locations.append(locationName)
        } while try expectOptional(.pipe)
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations, location: location(from: start))
    }

    /// `extend schema …` or `extend <type keyword> …`.
    mutating func parseTypeSystemExtension() throws(GraphQLError) -> Definition {
        let keyword = try lexer.lookahead()
        guard keyword.kind == .name else { throw unexpected(keyword) }
        let start = token.location
        switch keyword.value {
        case "schema":
            try expectKeyword("extend")
            try expectKeyword("schema")
            let directives = try parseDirectives(isConstant: true)
            var operationTypes: [OperationTypeDefinition] = []
            if try expectOptional(.braceLeft) {
                repeat {
                    operationTypes.append(try parseOperationTypeDefinition())
                } while try !expectOptional(.braceRight)
            }
            if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
            return .schemaExtension(
                SchemaDefinition(directives: directives, operationTypes: operationTypes, location: location(from: start)))
        case "scalar", "type", "interface", "union", "enum", "input":
            try expectKeyword("extend")
            return .typeExtension(try parseTypeDefinition(start: start, isExtension: true))
        default:
            throw unexpected(keyword)
        }
    }
}
