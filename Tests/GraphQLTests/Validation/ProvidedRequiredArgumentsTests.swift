import Testing

import GraphQL

/// `ProvidedRequiredArguments`: valid and invalid documents with the expected messages and locations.
@Suite struct ProvidedRequiredArgumentsTests {
    @Test func acceptsGivenAndDefaultedArguments() throws {
        try expectValid(.providedRequiredArguments, "{ complicatedArgs { multipleReqs(req1: 1, req2: 2) nonNullFieldWithDefault multipleOpts } dog { name @withArg(required: 1) } }")
    }

    @Test func reportsMissingFieldArguments() throws {
        try expectErrors(.providedRequiredArguments, "{ complicatedArgs { multipleReqs } }", [
            "Field \"multipleReqs\" argument \"req1\" of type \"Int!\" is required, but it was not provided. @ 1:21",
            "Field \"multipleReqs\" argument \"req2\" of type \"Int!\" is required, but it was not provided. @ 1:21",
        ])
    }

    @Test func reportsMissingDirectiveArguments() throws {
        try expectErrors(.providedRequiredArguments, "{ dog { name @skip } }", [
            "Directive \"@skip\" argument \"if\" of type \"Boolean!\" is required, but it was not provided. @ 1:14",
        ])
    }
}
