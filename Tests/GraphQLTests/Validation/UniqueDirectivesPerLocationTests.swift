import Testing

import GraphQL

/// `UniqueDirectivesPerLocation`: valid and invalid documents with the expected messages and locations.
@Suite struct UniqueDirectivesPerLocationTests {
    @Test func acceptsRepeatableAndDistinctDirectives() throws {
        try expectValid(.uniqueDirectivesPerLocation, "{ dog @repeatable @repeatable @onField { name @onField } }")
    }

    @Test func reportsRepeatedNonRepeatableDirective() throws {
        try expectErrors(.uniqueDirectivesPerLocation, "{ dog @onField @onField { name } }", [
            "The directive \"@onField\" can only be used once at this location. @ 1:7 1:16",
        ])
    }
}
