import Testing

import GraphQL

/// `ExecutableDefinitions`: valid and invalid documents with the expected messages and locations.
@Suite struct ExecutableDefinitionsTests {
    @Test func acceptsOperationsAndFragments() throws {
        try expectValid(.executableDefinitions, "query Q { dog { ...F } } fragment F on Dog { name }")
    }

    @Test func reportsTypeAndSchemaDefinitions() throws {
        try expectErrors(.executableDefinitions, "{ dog { name } } type Cow { name: String } schema { query: QueryRoot }", [
            "The \"Cow\" definition is not executable. @ 1:18",
            "The schema definition is not executable. @ 1:44",
        ])
    }

    @Test func reportsTypeExtensionsAndDirectiveDefinitions() throws {
        try expectErrors(.executableDefinitions, "{ dog { name } } extend type Dog { color: String } directive @d on FIELD", [
            "The \"Dog\" definition is not executable. @ 1:18",
            "The \"d\" definition is not executable. @ 1:52",
        ])
    }
}
