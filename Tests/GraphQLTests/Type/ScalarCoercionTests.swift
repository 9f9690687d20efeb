import Testing
@testable import GraphQL

/// Parses `text` as a constant literal.
func literal(_ text: String) throws -> Value {
    try Parser.parseConstValue(Source(body: text))
}

/// The message of the error `body` throws, or `nil` if it does not throw.
func errorMessage(_ body: () throws -> Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as GraphQLError {
        return error.message
    } catch {
        return "\(error)"
    }
}

struct ScalarInputCoercionTests {
    @Test(arguments: [
        (JSON.int(1), JSON.int(1)),
        (.int(-2_147_483_648), .int(-2_147_483_648)),
        (.int(2_147_483_647), .int(2_147_483_647)),
        (.double(4.0), .int(4)),
    ])
    func intAcceptsIntegralNumbersInThe32BitRange(input: JSON, expected: JSON) throws {
        #expect(try ScalarType.int.parseValue(input) == expected)
    }

    @Test(arguments: [
        (JSON.int(2_147_483_648), "Int cannot represent non 32-bit signed integer value: 2147483648"),
        (.int(-2_147_483_649), "Int cannot represent non 32-bit signed integer value: -2147483649"),
        (.double(1.5), "Int cannot represent non-integer value: 1.5"),
        (.string("1"), "Int cannot represent non-integer value: \"1\""),
        (.bool(true), "Int cannot represent non-integer value: true"),
        (.array([1]), "Int cannot represent non-integer value: [1]"),
        (.object(["a": 1]), "Int cannot represent non-integer value: { a: 1 }"),
    ])
    func intRejectsEverythingElseFromVariables(input: JSON, message: String) {
        #expect(errorMessage { try ScalarType.int.parseValue(input) } == message)
    }

    @Test func floatAcceptsIntegersAndFiniteDoubles() throws {
        #expect(try ScalarType.float.parseValue(.int(3)) == .double(3))
        #expect(try ScalarType.float.parseValue(.double(-1.25)) == .double(-1.25))
        #expect(errorMessage { try ScalarType.float.parseValue(.string("1.0")) }
            == "Float cannot represent non numeric value: \"1.0\"")
        #expect(errorMessage { try ScalarType.float.parseValue(.double(.nan)) }
            == "Float cannot represent non numeric value: NaN")
    }

    @Test func stringAndBooleanAcceptOnlyTheirOwnKind() throws {
        #expect(try ScalarType.string.parseValue("hi") == "hi")
        #expect(errorMessage { try ScalarType.string.parseValue(1) } == "String cannot represent a non string value: 1")
        #expect(try ScalarType.boolean.parseValue(false) == false)
        #expect(errorMessage { try ScalarType.boolean.parseValue(0) } == "Boolean cannot represent a non boolean value: 0")
    }

    @Test func idAcceptsStringsAndIntegersAsStrings() throws {
        #expect(try ScalarType.id.parseValue("abc") == "abc")
        #expect(try ScalarType.id.parseValue(42) == "42")
        #expect(errorMessage { try ScalarType.id.parseValue(1.5) } == "ID cannot represent value: 1.5")
        #expect(errorMessage { try ScalarType.id.parseValue(true) } == "ID cannot represent value: true")
    }

    @Test(arguments: [
        ("Int", "123", JSON.int(123)),
        ("Int", "-2147483648", .int(-2_147_483_648)),
        ("Float", "1", .double(1)),
        ("Float", "1.5e3", .double(1500)),
        ("String", "\"x\"", .string("x")),
        ("String", "\"\"\"block\"\"\"", .string("block")),
        ("Boolean", "true", .bool(true)),
        ("ID", "\"a1\"", .string("a1")),
        ("ID", "7", .string("7")),
    ])
    func literalsOfTheRightKindCoerce(scalar: String, text: String, expected: JSON) throws {
        let type = try #require(ScalarType.specified.first { $0.name == scalar })
        #expect(try type.parseLiteral(literal(text)) == expected)
    }

    @Test(arguments: [
        ("Int", "2147483648", "Int cannot represent non 32-bit signed integer value: 2147483648"),
        ("Int", "99999999999999999999", "Int cannot represent non 32-bit signed integer value: 99999999999999999999"),
        ("Int", "1.0", "Int cannot represent non-integer value: 1.0"),
        ("Int", "\"1\"", "Int cannot represent non-integer value: \"1\""),
        ("Float", "\"1.5\"", "Float cannot represent non numeric value: \"1.5\""),
        ("Float", "true", "Float cannot represent non numeric value: true"),
        ("String", "1", "String cannot represent a non string value: 1"),
        ("String", "ENUM", "String cannot represent a non string value: ENUM"),
        ("Boolean", "1", "Boolean cannot represent a non boolean value: 1"),
        ("ID", "1.5", "ID cannot represent a non-string and non-integer value: 1.5"),
        ("ID", "{a: 1}", "ID cannot represent a non-string and non-integer value: {a: 1}"),
    ])
    func literalsOfTheWrongKindAreRejected(scalar: String, text: String, message: String) throws {
        let type = try #require(ScalarType.specified.first { $0.name == scalar })
        let value = try literal(text)
        #expect(errorMessage { try type.parseLiteral(value) } == message)
    }
}

struct ScalarResultCoercionTests {
    @Test func intSerializesIntegralValuesInRange() throws {
        #expect(try ScalarType.int.serialize(1) == .int(1))
        #expect(try ScalarType.int.serialize(Int32.min) == .int(Int(Int32.min)))
        #expect(try ScalarType.int.serialize(1e0) == .int(1))
        #expect(try ScalarType.int.serialize(true) == .int(1))
        #expect(try ScalarType.int.serialize("-12") == .int(-12))
        #expect(try ScalarType.int.serialize(JSON.int(5)) == .int(5))
    }

    @Test func intRefusesOutOfRangeNonIntegralAndNonNumericResults() {
        #expect(errorMessage { try ScalarType.int.serialize(2_147_483_648) }
            == "Int cannot represent non 32-bit signed integer value: 2147483648")
        #expect(errorMessage { try ScalarType.int.serialize(1e100) }
            == "Int cannot represent non 32-bit signed integer value: 1e+100")
        #expect(errorMessage { try ScalarType.int.serialize(0.5) } == "Int cannot represent non-integer value: 0.5")
        #expect(errorMessage { try ScalarType.int.serialize(Double.nan) } == "Int cannot represent non-integer value: NaN")
        #expect(errorMessage { try ScalarType.int.serialize("") } == "Int cannot represent non-integer value: \"\"")
        #expect(errorMessage { try ScalarType.int.serialize("1.5") } == "Int cannot represent non-integer value: \"1.5\"")
    }

    @Test func floatSerializesFiniteNumbersOnly() throws {
        #expect(try ScalarType.float.serialize(1) == .double(1))
        #expect(try ScalarType.float.serialize(-1.5) == .double(-1.5))
        #expect(try ScalarType.float.serialize("2.5") == .double(2.5))
        #expect(try ScalarType.float.serialize(false) == .double(0))
        #expect(errorMessage { try ScalarType.float.serialize(Double.infinity) }
            == "Float cannot represent non numeric value: Infinity")
        #expect(errorMessage { try ScalarType.float.serialize("one") } == "Float cannot represent non numeric value: \"one\"")
    }

    @Test func stringSerializesTextNumbersAndBooleans() throws {
        #expect(try ScalarType.string.serialize("a") == "a")
        #expect(try ScalarType.string.serialize(1) == "1")
        #expect(try ScalarType.string.serialize(1.0) == "1")
        #expect(try ScalarType.string.serialize(-1.5) == "-1.5")
        #expect(try ScalarType.string.serialize(true) == "true")
        #expect(errorMessage { try ScalarType.string.serialize(JSON.array([])) } == "String cannot represent value: []")
    }

    @Test func booleanSerializesBooleansAndNumbers() throws {
        #expect(try ScalarType.boolean.serialize(true) == true)
        #expect(try ScalarType.boolean.serialize(0) == false)
        #expect(try ScalarType.boolean.serialize(2.5) == true)
        #expect(errorMessage { try ScalarType.boolean.serialize("true") }
            == "Boolean cannot represent a non boolean value: \"true\"")
    }

    @Test func idSerializesStringsAndIntegers() throws {
        #expect(try ScalarType.id.serialize("x") == "x")
        #expect(try ScalarType.id.serialize(12) == "12")
        #expect(errorMessage { try ScalarType.id.serialize(1.5) } == "ID cannot represent value: 1.5")
        #expect(errorMessage { try ScalarType.id.serialize(false) } == "ID cannot represent value: false")
    }
}
