import Testing

import GraphQL

/// `UniqueFragmentNames`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueFragmentNamesTests {
    @Test func acceptsDistinctFragments() throws {
        try expectValid(.uniqueFragmentNames, "{ dog { ...A ...B } } fragment A on Dog { name } fragment B on Dog { name }")
    }

    @Test func reportsRepeatedFragmentName() throws {
        try expectErrors(.uniqueFragmentNames, "{ dog { ...A } } fragment A on Dog { name } fragment A on Dog { barks }", [
            "There can be only one fragment named \"A\". @ 1:27 1:54",
        ])
    }
}
