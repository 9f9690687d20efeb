// libFuzzer target: parses the input as a GraphQL document (with a token limit, as a server
// would), validates it against a fixed schema with every specified rule and the limits, and
// executes what validates (queries and mutations, over fixed data with the default
// resolvers). Any crash, hang or sanitizer report is a bug; errors are expected outcomes.
import Dispatch

let fuzzSchema: Schema = {
    let sdl = """
        interface Node { id: ID! }
        interface Named { name(upper: Boolean = false): String }
        type Query {
          node(id: ID!): Node
          items(first: Int, filter: Filter): [Item!]!
          search(text: String!, lookup: Lookup): [Result]
          echo(values: [[Int!]], mood: Mood = HAPPY, when: Date): String
        }
        type Mutation { setMood(mood: Mood!): Mood }
        type Subscription { ticks(every: Int = 1): Int }
        type Item implements Node & Named { id: ID! name(upper: Boolean = false): String children: [Item] mood: Mood }
        type Person implements Node & Named { id: ID! name(upper: Boolean = false): String friends(last: Int): [Person!] }
        union Result = Item | Person
        enum Mood { HAPPY SAD }
        scalar Date
        input Filter { mood: Mood, names: [String!], nested: Filter, required: Int! = 0 }
        input Lookup @oneOf { id: ID, name: String }
        directive @tag(name: String!) repeatable on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @once on FIELD | QUERY | VARIABLE_DEFINITION
        """
    do {
        return try buildSchema(sdl: sdl)
    } catch {
        fatalError("fuzz schema does not build: \(error)")
    }
}()

/// The data every executed document reads: a small graph with abstract types and lists.
let fuzzRoot: [String: any Sendable] = {
    let child: [String: any Sendable] = ["__typename": "Item", "id": "2", "name": "leaf", "children": [] as [any Sendable], "mood": "SAD"]
    let item: [String: any Sendable] = ["__typename": "Item", "id": "1", "name": "root", "children": [child, missing], "mood": "HAPPY"]
    let person: [String: any Sendable] = ["__typename": "Person", "id": "3", "name": "Ada", "friends": [] as [any Sendable]]
    return [
        "node": item, "items": [item, child], "search": [item, person, missing], "echo": "echo",
        "setMood": "SAD",
    ]
}()

/// A null list item (an absent optional, as resolvers return it).
let missing: any Sendable = String?.none

let fuzzExecutor: Executor = {
    do {
        return try Executor(resolvers: Resolvers(schema: fuzzSchema))
    } catch {
        fatalError("fuzz executor does not build: \(error)")
    }
}()

/// Runs the async executor to completion from libFuzzer's synchronous callback.
func executeBlocking(_ document: Document) {
    let done = DispatchSemaphore(value: 0)
    Task {
        let result = await fuzzExecutor.execute(document: document, rootValue: fuzzRoot)
        _ = result.serialized()
        done.signal()
    }
    done.wait()
}

let fuzzRules = specifiedRules + [
    .maxDepth(), .maxAliases(), .maxComplexity(ComplexityOptions(), variables: ["n": .int(7)]),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = Source(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    guard let document = try? Parser.parse(source, options: ParseOptions(maxTokens: 5_000)) else { return 0 }
    let errors = validate(schema: fuzzSchema, document: document, rules: fuzzRules, options: ValidationOptions(maxErrors: 50))
    precondition(errors.count <= 51, "more errors than the limit allows")
    let executable = document.definitions.contains { definition in
        if case .operation(let operation) = definition { return operation.operation != .subscription }
        return false
    }
    if errors.isEmpty && executable { executeBlocking(document) }
    return 0
}
