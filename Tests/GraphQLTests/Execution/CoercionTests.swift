import Testing
@testable import GraphQL

/// Variable coercion (spec CoerceVariableValues) and argument coercion (spec
/// CoerceArgumentValues): defaults, null versus absent, lists, input objects and oneOf.
struct CoercionTests {
    static let sdl = """
        type Query {
          echo(value: String): String
          echoDefault(value: String = "default"): String
          echoRequired(value: String!): String
          int(value: Int): String
          list(values: [Int!]): String
          nested(value: [[Int]]): String
          input(filter: Filter): String
          pick(by: Pick!): String
          wrap(value: Wrapper!): String
          color(value: Color = RED): String
        }
        input Filter { term: String! limit: Int = 10 tags: [String!] }
        input Pick @oneOf { id: ID name: String }
        input Wrapper { title: String pick: Pick }
        enum Color { RED GREEN }
        """

    /// Every field answers with its arguments as JSON text, `absent` marking an absent one.
    static func executor() throws -> Executor {
        try makeExecutor(sdl) { r in
            for field in ["echo", "echoDefault", "echoRequired", "int", "list", "nested", "input", "pick", "wrap", "color"] {
                r.resolve("Query", field) { _, arguments, _, _ in
                    arguments.isEmpty ? "absent" : JSON.object(arguments.values).jsonText
                }
            }
        }
    }

    func run(_ query: String, _ variables: [String: JSON] = [:]) async throws -> String {
        try await execute(Self.executor(), query, variables: variables)
    }

    // MARK: - Arguments

    @Test func keepsNullApartFromAbsentArguments() async throws {
        #expect(try await run("{ a: echo b: echo(value: null) c: echo(value: \"x\") }")
            == #"{"data":{"a":"absent","b":"{\"value\":null}","c":"{\"value\":\"x\"}"}}"#)
    }

    @Test func appliesDefaultsOnlyWhenTheArgumentIsAbsent() async throws {
        #expect(try await run("{ a: echoDefault b: echoDefault(value: null) c: color }")
            == #"{"data":{"a":"{\"value\":\"default\"}","b":"{\"value\":null}","c":"{\"value\":\"RED\"}"}}"#)
    }

    @Test func appliesTheArgumentDefaultForAnUnsetVariable() async throws {
        let query = "query ($v: String) { echoDefault(value: $v) }"
        #expect(try await run(query) == #"{"data":{"echoDefault":"{\"value\":\"default\"}"}}"#)
        #expect(try await run(query, ["v": nil]) == #"{"data":{"echoDefault":"{\"value\":null}"}}"#)
        #expect(try await run(query, ["v": "set"]) == #"{"data":{"echoDefault":"{\"value\":\"set\"}"}}"#)
    }

    @Test func reportsARequiredArgumentFedByAnUnsetVariableAsAFieldError() async throws {
        #expect(try await run("query ($v: String) { echoRequired(value: $v) }")
            == #"{"errors":[{"message":"Argument \"value\" of required type \"String!\" was provided the variable \"$v\" which was not provided a runtime value.","locations":[{"line":1,"column":42}],"path":["echoRequired"]}],"data":{"echoRequired":null}}"#)
        #expect(try await run("query ($v: String) { echoRequired(value: $v) }", ["v": nil])
            == #"{"errors":[{"message":"Argument \"value\" of non-null type \"String!\" must not be null.","locations":[{"line":1,"column":42}],"path":["echoRequired"]}],"data":{"echoRequired":null}}"#)
    }

    @Test func coercesListLiteralsAndVariablesInside() async throws {
        #expect(try await run("query ($x: Int!) { a: list(values: [1, $x]) b: list(values: 3) c: nested(value: [[1], 2, null]) }", ["x": 2])
            == #"{"data":{"a":"{\"values\":[1,2]}","b":"{\"values\":[3]}","c":"{\"value\":[[1],[2],null]}"}}"#)
    }

    @Test func coercesInputObjectLiteralsWithFieldDefaults() async throws {
        #expect(try await run(#"{ input(filter: {term: "a", tags: "x"}) }"#)
            == #"{"data":{"input":"{\"filter\":{\"term\":\"a\",\"limit\":10,\"tags\":[\"x\"]}}"}}"#)
    }

    @Test func acceptsExactlyOneNonNullFieldOfAOneOfInput() async throws {
        #expect(try await run(#"{ pick(by: {id: 4}) }"#) == #"{"data":{"pick":"{\"by\":{\"id\":\"4\"}}"}}"#)
        #expect(try await run("query ($p: Pick!) { pick(by: $p) }", ["p": ["name": "n"]])
            == #"{"data":{"pick":"{\"by\":{\"name\":\"n\"}}"}}"#)
    }

    /// A OneOf input nested in another input object (a mutation's `input: {schedule: {once: …}}`) keeps
    /// its rule whether written as a literal or given in a variable: one key, not null.
    @Test func aOneOfInputNestedInAnInputObjectTakesExactlyOneNonNullField() async throws {
        #expect(try await run(#"{ wrap(value: {title: "t", pick: {name: "n"}}) }"#)
            == #"{"data":{"wrap":"{\"value\":{\"title\":\"t\",\"pick\":{\"name\":\"n\"}}}"}}"#)
        let query = "query ($w: Wrapper!) { wrap(value: $w) }"
        #expect(try await run(query, ["w": ["pick": ["id": 7]]]) == #"{"data":{"wrap":"{\"value\":{\"pick\":{\"id\":\"7\"}}}"}}"#)
        let result = try await Self.executor().execute(
            document: try Parser.parse("query ($a: Wrapper!, $b: Wrapper!, $c: Wrapper!) { wrap(value: $a) }"),
            variables: ["a": ["pick": ["id": "1", "name": "2"]], "b": ["pick": [:]], "c": ["pick": ["id": nil]]])
        #expect(result.errors.map(\.message) == [
            "Variable \"$a\" got invalid value { id: \"1\", name: \"2\" } at \"a.pick\"; Exactly one key must be specified for OneOf type \"Pick\".",
            "Variable \"$b\" got invalid value {} at \"b.pick\"; Exactly one key must be specified for OneOf type \"Pick\".",
            "Variable \"$c\" got invalid value null at \"c.pick.id\"; Field \"id\" must be non-null.",
        ])
        // Unvalidated, the literal is refused when its argument is coerced (validation names the rule first).
        let literal = try await Self.executor().execute(document: try Parser.parse(#"{ wrap(value: {pick: {id: "1", name: "2"}}) }"#))
        #expect(literal.errors.map(\.message) == [#"Argument "value" has invalid value {pick: {id: "1", name: "2"}}."#])
    }

    // MARK: - Variables

    @Test func reportsMissingAndNullRequiredVariablesAsRequestErrors() async throws {
        let query = "query ($v: String!) { echo(value: $v) }"
        #expect(try await run(query)
            == #"{"errors":[{"message":"Variable \"$v\" of required type \"String!\" was not provided.","locations":[{"line":1,"column":8}]}]}"#)
        #expect(try await run(query, ["v": nil])
            == #"{"errors":[{"message":"Variable \"$v\" of non-null type \"String!\" must not be null.","locations":[{"line":1,"column":8}]}]}"#)
    }

    @Test func appliesVariableDefaultsAndKeepsExplicitNull() async throws {
        let query = #"query ($v: String = "fallback") { echo(value: $v) }"#
        #expect(try await run(query) == #"{"data":{"echo":"{\"value\":\"fallback\"}"}}"#)
        #expect(try await run(query, ["v": nil]) == #"{"data":{"echo":"{\"value\":null}"}}"#)
    }

    @Test func coercesVariableValuesByTheirType() async throws {
        let query = "query ($n: Int, $l: [Int!], $c: Color, $f: Filter) { int(value: $n) list(values: $l) color(value: $c) input(filter: $f) }"
        #expect(try await run(query, ["n": 4.0, "l": 5, "c": "GREEN", "f": ["term": "t"]])
            == #"{"data":{"int":"{\"value\":4}","list":"{\"values\":[5]}","color":"{\"value\":\"GREEN\"}","input":"{\"filter\":{\"term\":\"t\",\"limit\":10}}"}}"#)
    }

    @Test func reportsEveryInvalidVariableWithItsPath() async throws {
        let query = "query ($n: Int, $l: [Int!], $f: Filter, $p: Pick!) { int(value: $n) }"
        let result = try await Self.executor().execute(
            document: try Parser.parse(query),
            variables: ["n": 1.5, "l": [1, nil], "f": ["limit": "x", "other": 1], "p": ["id": "1", "name": "2"]])
        #expect(!result.hasData)
        #expect(result.errors.map(\.message) == [
            "Variable \"$n\" got invalid value 1.5; Int cannot represent non-integer value: 1.5",
            "Variable \"$l\" got invalid value null at \"l[1]\"; Expected non-nullable type \"Int!\" not to be null.",
            "Variable \"$f\" got invalid value { limit: \"x\", other: 1 }; Field \"term\" of required type \"String!\" was not provided.",
            "Variable \"$f\" got invalid value \"x\" at \"f.limit\"; Int cannot represent non-integer value: \"x\"",
            "Variable \"$f\" got invalid value { limit: \"x\", other: 1 }; Field \"other\" is not defined by type \"Filter\". Did you mean \"term\"?",
            "Variable \"$p\" got invalid value { id: \"1\", name: \"2\" }; Exactly one key must be specified for OneOf type \"Pick\".",
        ])
    }
}
