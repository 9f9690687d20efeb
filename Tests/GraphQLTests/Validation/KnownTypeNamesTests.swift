import Testing

import GraphQL

/// `KnownTypeNames`: valid and invalid documents with the expected messages and locations.
@Suite struct KnownTypeNamesTests {
    @Test func acceptsKnownTypes() throws {
        try expectValid(.knownTypeNames, "query Q($id: ID, $c: ComplexInput) { dog { ... on Pet { name } } } fragment F on Dog { name }")
    }

    @Test func reportsUnknownTypesWithSuggestions() throws {
        try expectErrors(.knownTypeNames, "query Q($x: JumbledUpLetters) { ... on Doggo { name } }", [
            "Unknown type \"JumbledUpLetters\". @ 1:13",
            "Unknown type \"Doggo\". Did you mean \"Dog\"? @ 1:40",
        ])
    }
}
