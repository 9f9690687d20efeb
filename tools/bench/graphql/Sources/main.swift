// The engine benchmark's Swift side: parse, validate, execute and serialize (a) the standard
// introspection query against a realistic schema and (b) a query returning 1,000 objects
// with 10 scalar fields, in-process, for a fixed time each. tools/bench/graphql/run.py runs
// it beside graphql-core doing the same work and prints the ratios.
//
// Usage: GraphQLBench SCHEMA.graphql INTROSPECTION.graphql [SECONDS [QUERY…]]
// QUERY (`introspection`, `list`) limits the run to those queries, for profiling one of them.
// Prints `name key=value …` lines.
import Foundation
import GraphQL

/// The CPU time the process has used, in seconds: unlike the wall clock, it does not count
/// the time other processes on a shared machine hold the cores.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` repeatedly for about `seconds` (after a short warm-up) and returns the
/// iterations, the elapsed seconds and the CPU seconds used.
nonisolated func measure(
    seconds: Double, _ body: () async throws -> Void
) async throws -> (iterations: Int, seconds: Double, cpuSeconds: Double) {
    let clock = ContinuousClock()
    let warmUpEnd = clock.now.advanced(by: .milliseconds(300))
    while clock.now < warmUpEnd { try await body() }
    let start = clock.now
    let cpuStart = processCPUSeconds()
    let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
    var iterations = 0
    repeat {
        try await body()
        iterations += 1
    } while clock.now < end || iterations < 5
    let elapsed = start.duration(to: clock.now)
    let cpuSeconds = processCPUSeconds() - cpuStart
    return (iterations, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpuSeconds)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: GraphQLBench SCHEMA.graphql INTROSPECTION.graphql [SECONDS [QUERY...]]\n".utf8))
    exit(2)
}
let sdl = try String(contentsOfFile: arguments[1], encoding: .utf8)
let introspectionQuery = try String(contentsOfFile: arguments[2], encoding: .utf8)
let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 3 : 3
let selectedQueries = Set(arguments.dropFirst(4))

let schema = try buildSchema(sdl: sdl)
func item(_ index: Int) -> [String: any Sendable] {
    var item: [String: any Sendable] = [:]
    item["id"] = String(index)
    item["name"] = "Item \(index)"
    item["description"] = "The item numbered \(index)."
    item["price"] = Double(index) * 1.25
    item["quantity"] = index % 17
    item["active"] = index % 2 == 0
    item["category"] = "category-\(index % 10)"
    item["sku"] = "SKU-\(100_000 + index)"
    item["rating"] = Double(index % 50) / 10
    item["stock"] = index * 3
    return item
}
let items = (0..<1000).map(item)
var resolvers = Resolvers(schema: schema)
resolvers.resolve("Query", "items") { _, arguments, _, _ in
    Array(items.prefix(arguments.int("count") ?? items.count))
}
let executor = try Executor(resolvers: resolvers)

/// The measured pipeline, outside the main actor so that the loop does not hop between
/// executors on every iteration.
struct Pipeline: Sendable {
    let schema: Schema
    let executor: Executor

    /// Parse, validate, execute and serialize; returns the response size so the work is used.
    func run(_ query: String) async throws -> Int {
        let document = try Parser.parse(query)
        let errors = validate(schema: schema, document: document, rules: specifiedRules)
        guard errors.isEmpty else { throw errors[0] }
        let result = await executor.execute(document: document)
        guard result.errors.isEmpty else { throw result.errors[0] }
        return result.serialized().count
    }

    /// Measures each query and prints one line per query.
    func report(_ queries: [(name: String, query: String, fields: Int)], seconds: Double) async throws {
        for (name, query, fields) in queries {
            var responseBytes = 0
            let (iterations, elapsed, cpuSeconds) = try await measure(seconds: seconds) { responseBytes = try await run(query) }
            let perOperation = elapsed / Double(iterations)
            var line = "\(name) iterations=\(iterations) seconds=\(elapsed) ms_per_op=\(perOperation * 1000)"
                + " cpu_ms_per_op=\(cpuSeconds / Double(iterations) * 1000) bytes=\(responseBytes)"
            if fields > 0 { line += " fields_per_second=\(Double(fields) / perOperation)" }
            print(line)
        }
    }
}

let listQuery = "{ items(count: 1000) { id name description price quantity active category sku rating stock } }"
let queries = [("introspection", introspectionQuery, 0), ("list", listQuery, 10_000)]
try await Pipeline(schema: schema, executor: executor).report(
    queries.filter { selectedQueries.isEmpty || selectedQueries.contains($0.0) }, seconds: seconds)
