import Testing

import GraphQL

/// `UniqueOperationNames`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueOperationNamesTests {
    @Test func acceptsDistinctNamesAndAnonymousOperations() throws {
        try expectValid(.uniqueOperationNames, "query A { dog { name } } query B { dog { name } } fragment A on Dog { name }")
    }

    @Test func reportsRepeatedNamesAcrossOperationKinds() throws {
        try expectErrors(.uniqueOperationNames, "query A { dog { name } } mutation A { renameDog(name: \"x\") { name } }", [
            "There can be only one operation named \"A\". @ 1:7 1:35",
        ])
    }
}
