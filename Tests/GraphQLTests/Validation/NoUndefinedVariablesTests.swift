import Testing

import GraphQL

/// `NoUndefinedVariables`: valid and invalid documents with the expected messages and locations.
@Suite struct NoUndefinedVariablesTests {
    @Test func acceptsVariablesDefinedByTheOperation() throws {
        try expectValid(.noUndefinedVariables, "query Q($a: Boolean) { dog { ...F } } fragment F on Dog { isHouseTrained(atOtherHomes: $a) }")
    }

    @Test func reportsVariablesUsedInFragments() throws {
        try expectErrors(.noUndefinedVariables, "query Q { dog { ...F } } fragment F on Dog { isHouseTrained(atOtherHomes: $b) }", [
            "Variable \"$b\" is not defined by operation \"Q\". @ 1:75 1:1",
        ])
    }

    @Test func reportsVariablesOfAnonymousOperations() throws {
        try expectErrors(.noUndefinedVariables, "{ dog { isAtLocation(x: 1, y: $x) } }", [
            "Variable \"$x\" is not defined. @ 1:31 1:1",
        ])
    }
}
