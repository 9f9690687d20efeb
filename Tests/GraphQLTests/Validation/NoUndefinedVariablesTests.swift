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

    @Test func findsVariablesInEveryPositionOfASelection() throws {
        try expectErrors(.noUndefinedVariables, """
            query Q @include(if: $a) {
              dog @skip(if: $b) {
                ... on Dog @include(if: $c) { isAtLocation(x: 1, y: $d) }
                ...F @skip(if: $e)
                name
              }
              dog { owner: doesKnowCommand(dogCommand: SIT) ... @include(if: true) { ... on Dog { isHouseTrained(atOtherHomes: $f) } } }
            }
            fragment F on Dog { name }
            """, [
            "Variable \"$a\" is not defined by operation \"Q\". @ 1:22 1:1",
            "Variable \"$b\" is not defined by operation \"Q\". @ 2:17 1:1",
            "Variable \"$c\" is not defined by operation \"Q\". @ 3:29 1:1",
            "Variable \"$d\" is not defined by operation \"Q\". @ 3:57 1:1",
            "Variable \"$e\" is not defined by operation \"Q\". @ 4:20 1:1",
            "Variable \"$f\" is not defined by operation \"Q\". @ 7:116 1:1",
        ])
    }

    @Test func acceptsOperationsAndFragmentsWithoutVariables() throws {
        try expectValid(.noUndefinedVariables, "{ dog { ...F name @include(if: true) } } fragment F on Dog { isAtLocation(x: 1, y: 2) }")
    }
}
