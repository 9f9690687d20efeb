import Testing

import GraphQL

/// `NoFragmentCycles`: valid and invalid documents with the expected messages and locations.
@Suite struct NoFragmentCyclesTests {
    @Test func acceptsSpreadingTheSameFragmentTwice() throws {
        try expectValid(.noFragmentCycles, "{ dog { ...A } } fragment A on Dog { ...B ...B } fragment B on Dog { name }")
    }

    @Test func reportsDirectSelfSpread() throws {
        try expectErrors(.noFragmentCycles, "{ dog { ...A } } fragment A on Dog { ...A }", [
            "Cannot spread fragment \"A\" within itself. @ 1:38",
        ])
    }

    @Test func reportsCycleThroughOtherFragments() throws {
        try expectErrors(.noFragmentCycles, "{ dog { ...A } } fragment A on Dog { ...B } fragment B on Dog { ...C } fragment C on Dog { ...A }", [
            "Cannot spread fragment \"A\" within itself via \"B\", \"C\". @ 1:38 1:65 1:92",
        ])
    }
}
