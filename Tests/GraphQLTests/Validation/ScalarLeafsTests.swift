import Testing

import GraphQL

/// `ScalarLeafs`: valid and invalid documents with the expected messages and locations.
@Suite struct ScalarLeafsTests {
    @Test func acceptsLeavesWithoutAndObjectsWithSelections() throws {
        try expectValid(.scalarLeafs, "{ dog { name barks } }")
    }

    @Test func reportsObjectWithoutSelection() throws {
        try expectErrors(.scalarLeafs, "{ human }", [
            "Field \"human\" of type \"Human\" must have a selection of subfields. Did you mean \"human { ... }\"? @ 1:3",
        ])
    }

    @Test func reportsLeafWithSelection() throws {
        try expectErrors(.scalarLeafs, "{ dog { barks { sinceWhen } } }", [
            "Field \"barks\" must not have a selection since type \"Boolean\" has no subfields. @ 1:15",
        ])
    }
}
