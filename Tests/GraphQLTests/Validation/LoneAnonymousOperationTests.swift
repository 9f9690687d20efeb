import Testing

import GraphQL

/// `LoneAnonymousOperation`: valid and invalid documents with the expected messages and locations.
@Suite struct LoneAnonymousOperationTests {
    @Test func acceptsOneAnonymousOperationWithFragments() throws {
        try expectValid(.loneAnonymousOperation, "{ dog { ...F } } fragment F on Dog { name }")
    }

    @Test func reportsAnonymousOperationAmongOthers() throws {
        try expectErrors(.loneAnonymousOperation, "{ dog { name } } query B { dog { name } }", [
            "This anonymous operation must be the only defined operation. @ 1:1",
        ])
    }

    @Test func reportsEveryAnonymousOperation() throws {
        try expectErrors(.loneAnonymousOperation, "{ dog { name } } { cat { name } }", [
            "This anonymous operation must be the only defined operation. @ 1:1",
            "This anonymous operation must be the only defined operation. @ 1:18",
        ])
    }
}
