import Testing

import GraphQL

/// `NoUnusedVariables`: valid and invalid documents with the expected messages and locations.
@Suite struct NoUnusedVariablesTests {
    @Test func acceptsVariablesUsedThroughFragments() throws {
        try expectValid(.noUnusedVariables, "query Q($a: Boolean) { dog { ...F } } fragment F on Dog { isHouseTrained(atOtherHomes: $a) }")
    }

    @Test func reportsUnusedVariables() throws {
        try expectErrors(.noUnusedVariables, "query Q($a: Boolean, $b: Int) { dog { isHouseTrained(atOtherHomes: $a) } }", [
            "Variable \"$b\" is never used in operation \"Q\". @ 1:22",
        ])
    }
}
