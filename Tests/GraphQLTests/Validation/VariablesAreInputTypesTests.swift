import Testing

import GraphQL

/// `VariablesAreInputTypes`: valid and invalid documents with the expected messages and locations.
@Suite struct VariablesAreInputTypesTests {
    @Test func acceptsInputTypes() throws {
        try expectValid(.variablesAreInputTypes, "query Q($a: String, $b: [Boolean!]!, $c: ComplexInput) { dog { name } }")
    }

    @Test func reportsOutputTypes() throws {
        try expectErrors(.variablesAreInputTypes, "query Q($a: Dog, $b: [[CatOrDog!]]!) { dog { name } }", [
            "Variable \"$a\" cannot be non-input type \"Dog\". @ 1:13",
            "Variable \"$b\" cannot be non-input type \"[[CatOrDog!]]!\". @ 1:22",
        ])
    }
}
