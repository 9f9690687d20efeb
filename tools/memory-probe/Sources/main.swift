// The heap a cached, executed document holds, beside the document cache's estimate of it
// (`GraphQLService.retainedBytes(ofDocument:text:)`), for the shapes that hold the most per
// byte of text. A process of its own, so no other work allocates or frees while it measures
// (`HeapUsage` reads the whole process's heap): `DocumentCacheMemoryTests` runs it and checks
// that every shape stays below its estimate, or the byte bound would not bound memory.
//
// Prints one line per shape: name, bytes held per document, estimated bytes, tab-separated.
import GraphQL
import HearthAPI
import Support

let sdl = """
type Query { nodes(ids: [ID!]!): [Item]! numbers(values: [Int!]!): Int echo(text: String): String item: Item }
type Item { a: Int b: Int item: Item }
"""

/// Documents of about 50 KB, distinct per variant, each of one shape.
let shapes: [(name: String, document: (Int) -> String)] = [
    ("a list of 4,000 short strings", { variant in
        "{ nodes(ids: [" + (0..<4_000).map { "\"v\(variant)-\($0)\"" }.joined(separator: ",") + "]) { a } }"
    }),
    ("a list of 10,000 small integers", { variant in
        "{ numbers(values: [\(variant)," + (0..<10_000).map { String($0 % 10) }.joined(separator: ",") + "]) }"
    }),
    ("1,500 aliased fields", { variant in
        "{ item { " + (0..<1_500).map { "f\($0)_\(variant): a" }.joined(separator: " ") + " } }"
    }),
    ("500 aliased fields with sub-selections", { variant in
        "{ " + (0..<500).map { "i\($0)_\(variant): item { a b }" }.joined(separator: " ") + " }"
    }),
    ("a 50 KB string literal", { variant in
        "{ echo(text: \"\(variant)" + String(repeating: "x", count: 50_000) + "\") }"
    }),
    ("100 fragments", { variant in
        "{ item { " + (0..<100).map { "...F\($0)" }.joined(separator: " ") + " } } "
            + (0..<100).map { "fragment F\($0) on Item { a\(variant)_\($0): a b item { a } }" }.joined(separator: " ")
    }),
]

func makeService() throws -> GraphQLService {
    var resolvers = Resolvers(schema: try buildSchema(sdl: sdl))
    resolvers.resolve("Query", "nodes") { _, _, _, _ in [[String: Any]]() }
    resolvers.resolve("Query", "numbers") { _, _, _, _ in 0 }
    resolvers.resolve("Query", "echo") { _, _, _, _ in "" }
    resolvers.resolve("Query", "item") { _, _, _, _ in [String: Any]() }
    resolvers.resolve("Item", "item") { _, _, _, _ in Optional<[String: Any]>.none }
    resolvers.resolve("Item", "a") { _, _, _, _ in 1 }
    resolvers.resolve("Item", "b") { _, _, _, _ in 2 }
    // Limits out of the way: the estimate must hold whatever an operator configures.
    let limits = GraphQLLimits(
        maxDocumentBytes: 1 << 20, maxTokens: 1_000_000, maxDepth: 100, maxAliases: 1_000_000,
        complexity: ComplexityOptions(maximum: .max), maxSelectionSetFields: 1_000_000,
        inlineDocumentBytes: 1 << 20, documentCacheEntries: 10_000, documentCacheBytes: 1 << 40)
    return try GraphQLService(resolvers: resolvers, limits: limits, logger: .disabled)
}

let count = 20
for (name, make) in shapes {
    let service = try makeService()
    let before = HeapUsage.bytesInUse
    for variant in 0..<count {
        // Made here and dropped after the request, as a request body is: what stays is what
        // the cache holds, its key's copy of the text included.
        let outcome = await service.execute(
            GraphQLRequest(query: make(variant)), allowsMutations: false, requestID: "memory", context: ())
        guard case .executed = outcome.status else {
            fatalError("\(name): \(outcome.result.errors.map(\.message))")
        }
    }
    let measured = (HeapUsage.bytesInUse - before) / count
    precondition(service.documentCache.statistics.count == count, "\(name): every document is cached")
    print("\(name)\t\(measured)\t\(service.documentCache.statistics.cost / count)")
}
