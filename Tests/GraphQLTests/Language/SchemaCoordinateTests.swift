import Testing

@testable import GraphQL

struct SchemaCoordinateTests {
    @Test(arguments: [
        ("Type", SchemaCoordinate.type("Type")),
        ("Type.field", .member(type: "Type", member: "field")),
        ("Enum.VALUE", .member(type: "Enum", member: "VALUE")),
        ("Type.field(arg:)", .argument(type: "Type", field: "field", argument: "arg")),
        ("@dir", .directive("dir")),
        ("@dir(arg:)", .directiveArgument(directive: "dir", argument: "arg")),
        ("__Type._f1(_a:)", .argument(type: "__Type", field: "_f1", argument: "_a")),
    ])
    func parsesAndPrintsSchemaCoordinates(text: String, expected: SchemaCoordinate) throws {
        let coordinate = try Parser.parseSchemaCoordinate(text)
        #expect(coordinate == expected)
        #expect(coordinate.description == text)
    }

    @Test(arguments: [
        ("", "Expected Name, found <EOF>.", 1),
        (" Type", "Expected Name, found \" \".", 1),
        ("Type ", "Expected <EOF>, found \" \".", 5),
        ("Type. field", "Expected Name, found \" \".", 6),
        ("Type.field(arg)", "Expected \":\", found \")\".", 15),
        ("Type.field(arg:", "Expected \")\", found <EOF>.", 16),
        ("Type.field()", "Expected Name, found \")\".", 12),
        ("Type.field.deeper", "Expected <EOF>, found \".\".", 11),
        ("@", "Expected Name, found <EOF>.", 2),
        ("@dir.field", "Expected <EOF>, found \".\".", 5),
        ("@dir(arg: )", "Expected \")\", found \" \".", 10),
        ("Type(arg:)", "Expected <EOF>, found \"(\".", 5),
        ("1Type", "Expected Name, found \"1\".", 1),
        ("Tÿpe", "Expected <EOF>, found U+00FF.", 2),
        ("Type.é", "Expected Name, found U+00E9.", 6),
    ])
    func rejectsMalformedSchemaCoordinates(text: String, message: String, column: Int) {
        do {
            _ = try Parser.parseSchemaCoordinate(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.message == "Syntax Error: " + message)
            #expect(error.locations == [GraphQL.SourceLocation(line: 1, column: column)])
        }
    }
}
