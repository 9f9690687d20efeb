import Testing

import GraphQL

/// `UniqueArgumentNames`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueArgumentNamesTests {
    @Test func acceptsDistinctArguments() throws {
        try expectValid(.uniqueArgumentNames, "{ dog { isAtLocation(x: 1, y: 2) @withArg(required: 1, optional: \"a\") } }")
    }

    @Test func reportsRepeatedArguments() throws {
        try expectErrors(.uniqueArgumentNames, "{ dog { isAtLocation(x: 1, x: 2) } }", [
            "There can be only one argument named \"x\". @ 1:22 1:28",
        ])
    }
}
