import Testing

import GraphQL

/// `SingleFieldSubscriptions`: valid and invalid documents with the expected messages and locations.
@Suite struct SingleFieldSubscriptionsTests {
    @Test func acceptsOneRootFieldThroughFragments() throws {
        try expectValid(.singleFieldSubscriptions, "subscription S { ...F } fragment F on SubscriptionRoot { catSubscribe { name } }")
    }

    @Test func reportsMoreThanOneRootField() throws {
        try expectErrors(.singleFieldSubscriptions, "subscription S { catSubscribe { name } dogSubscribe { name } }", [
            "Subscription \"S\" must select only one top level field. @ 1:40",
        ])
    }

    @Test func reportsIntrospectionRootField() throws {
        try expectErrors(.singleFieldSubscriptions, "subscription { __typename }", [
            "Anonymous Subscription must not select an introspection top level field. @ 1:16",
        ])
    }

    @Test func reportsSkipAndIncludeAtTheRoot() throws {
        try expectErrors(.singleFieldSubscriptions, "subscription { catSubscribe @skip(if: false) { name } }", [
            "Anonymous Subscription must not use `@skip` or `@include` directives in the top level selection. @ 1:29",
        ])
    }
}
