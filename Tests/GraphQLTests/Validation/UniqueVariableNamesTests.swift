import Testing

import GraphQL

/// `UniqueVariableNames`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueVariableNamesTests {
    @Test func acceptsDistinctVariables() throws {
        try expectValid(.uniqueVariableNames, "query Q($a: Int, $b: Int) { dog { name } }")
    }

    @Test func reportsRepeatedVariables() throws {
        try expectErrors(.uniqueVariableNames, "query Q($a: Int, $a: Int, $b: Int, $a: String) { dog { name } }", [
            "There can be only one variable named \"$a\". @ 1:10 1:19 1:37",
        ])
    }
}
