import Testing

import GraphQL

/// `PossibleFragmentSpreads`: valid and invalid documents with the expected messages and locations.
@Suite struct PossibleFragmentSpreadsTests {
    @Test func acceptsOverlappingTypes() throws {
        try expectValid(.possibleFragmentSpreads, "{ dog { ... on Pet { name } ...A } pet { ... on Dog { barks } } } fragment A on CatOrDog { __typename }")
    }

    @Test func reportsDisjointInlineFragment() throws {
        try expectErrors(.possibleFragmentSpreads, "{ dog { ... on Cat { meows } } }", [
            "Fragment cannot be spread here as objects of type \"Dog\" can never be of type \"Cat\". @ 1:9",
        ])
    }

    @Test func reportsDisjointNamedFragment() throws {
        try expectErrors(.possibleFragmentSpreads, "{ catOrDog { ...H } } fragment H on HumanOrAlien { __typename }", [
            "Fragment \"H\" cannot be spread here as objects of type \"CatOrDog\" can never be of type \"HumanOrAlien\". @ 1:14",
        ])
    }
}
