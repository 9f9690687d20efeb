import Testing

import GraphQL

/// `NoUnusedFragments`: valid and invalid documents with the expected messages and locations.
@Suite struct NoUnusedFragmentsTests {
    @Test func acceptsFragmentsUsedIndirectly() throws {
        try expectValid(.noUnusedFragments, "{ dog { ...A } } fragment A on Dog { ...B } fragment B on Dog { name }")
    }

    @Test func reportsFragmentsNoOperationReaches() throws {
        try expectErrors(.noUnusedFragments, "{ dog { ...A } } fragment A on Dog { name } fragment C on Dog { ...D } fragment D on Dog { ...C }", [
            "Fragment \"C\" is never used. @ 1:45",
            "Fragment \"D\" is never used. @ 1:72",
        ])
    }
}
