import Testing

import GraphQL

/// `KnownFragmentNames`: valid and invalid documents with the expected messages and locations.
@Suite struct KnownFragmentNamesTests {
    @Test func acceptsDefinedFragments() throws {
        try expectValid(.knownFragmentNames, "{ dog { ...A } } fragment A on Dog { name }")
    }

    @Test func reportsUndefinedFragment() throws {
        try expectErrors(.knownFragmentNames, "{ dog { ...Missing } }", [
            "Unknown fragment \"Missing\". @ 1:12",
        ])
    }
}
