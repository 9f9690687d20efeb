import Testing

import GraphQL

/// `KnownDirectives`: valid and invalid documents with the expected messages and locations.
@Suite struct KnownDirectivesTests {
    @Test func acceptsDirectivesInTheirLocations() throws {
        try expectValid(.knownDirectives, "query Q($v: Int @onVariableDefinition) @onQuery { dog @onField { ...F @onFragmentSpread ... @onInlineFragment { name } } } fragment F on Dog @onFragmentDefinition { name }")
    }

    @Test func reportsUnknownDirective() throws {
        try expectErrors(.knownDirectives, "{ dog { name @unknown } }", [
            "Unknown directive \"@unknown\". @ 1:14",
        ])
    }

    @Test func reportsMisplacedDirectives() throws {
        try expectErrors(.knownDirectives, "query Q @onField { dog @onQuery { name } }", [
            "Directive \"@onField\" may not be used on QUERY. @ 1:9",
            "Directive \"@onQuery\" may not be used on FIELD. @ 1:24",
        ])
    }
}
