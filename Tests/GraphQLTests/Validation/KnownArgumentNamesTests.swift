import Testing

import GraphQL

/// `KnownArgumentNames`: valid and invalid documents with the expected messages and locations.
@Suite struct KnownArgumentNamesTests {
    @Test func acceptsDefinedArguments() throws {
        try expectValid(.knownArgumentNames, "{ dog { doesKnowCommand(dogCommand: SIT) name @skip(if: false) } }")
    }

    @Test func reportsUnknownFieldArgumentWithSuggestion() throws {
        try expectErrors(.knownArgumentNames, "{ dog { doesKnowCommand(dogcommand: SIT) } }", [
            "Unknown argument \"dogcommand\" on field \"Dog.doesKnowCommand\". Did you mean \"dogCommand\"? @ 1:25",
        ])
    }

    @Test func reportsUnknownDirectiveArgument() throws {
        try expectErrors(.knownArgumentNames, "{ dog { name @skip(unless: false, if: true) } }", [
            "Unknown argument \"unless\" on directive \"@skip\". @ 1:20",
        ])
    }
}
