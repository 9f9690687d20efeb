import GraphQL
import HearthAPI
import HearthHTTP
import HearthStore
import Support
import Synchronization
import Testing

struct DataLoaderTests {
    /// Fifty items, each with an owner in another table; `Item.owner` goes through a loader.
    private static let sdl = """
    type Query { items: [Item!]! }
    type Item { id: Int! owner: Owner }
    type Owner { id: Int! name: String! }
    """

    private struct Context: Sendable {
        let owners: DataLoader<Int, [String: any Sendable]>
    }

    /// Every SQL query the resolvers send, in order.
    private final class QueryLog: Sendable {
        private let queries = Mutex<[String]>([])

        func query(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
            queries.withLock { $0.append(sql) }
            return try db.query(sql, arguments)
        }

        var all: [String] { queries.withLock { $0 } }
    }

    /// A database of this run's store without tables: `seed` makes its own.
    private static let emptyDatabase = TemporaryDatabase.Preparation(identity: "empty") { _ in }

    private static func seed(_ pool: any DatabaseWriter) throws {
        try pool.write { db in
            try db.execute("CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL REFERENCES owner(id))")
            for id in 1...10 { try db.execute("INSERT INTO owner (id, name) VALUES (?, ?)", [id, "owner \(id)"]) }
            for id in 1...50 { try db.execute("INSERT INTO item (id, owner_id) VALUES (?, ?)", [id, id % 10 + 1]) }
        }
    }

    /// The schema's resolvers; `batched` chooses between the loader and one query per item.
    private static func service(_ pool: any DatabaseWriter, log: QueryLog, batched: Bool) throws -> GraphQLService {
        var resolvers = Resolvers(schema: try buildSchema(sdl: sdl))
        resolvers.resolve("Query", "items") { _, _, _, _ in
            try pool.read { db in
                try log.query(db, "SELECT id, owner_id FROM item ORDER BY id").map { row -> [String: any Sendable] in
                    ["id": try row["id"] as Int, "ownerID": try row["owner_id"] as Int]
                }
            }
        }
        resolvers.resolveField("Item", "owner") { source, _, context, _ in
            let ownerID = (source as! [String: any Sendable])["ownerID"] as! Int
            guard batched else {
                return .value(try pool.read { db in
                    try log.query(db, "SELECT id, name FROM owner WHERE id = ?", [ownerID]).first.map(Self.owner)
                })
            }
            let load = (context as! Context).owners.load(ownerID)
            return .async { try await load() }
        }
        return try GraphQLService(resolvers: resolvers, logger: .disabled)
    }

    private static func owner(_ row: Row) throws -> [String: any Sendable] {
        ["id": try row["id"] as Int, "name": try row["name"] as String]
    }

    private static func ownerLoader(_ pool: any DatabaseWriter, log: QueryLog) -> DataLoader<Int, [String: any Sendable]> {
        DataLoader { keys in
            try await pool.read { db in
                let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
                var owners: [Int: [String: any Sendable]] = [:]
                for row in try log.query(db, "SELECT id, name FROM owner WHERE id IN (\(placeholders))", StatementArguments(keys)) {
                    owners[try row["id"] as Int] = try owner(row)
                }
                return owners
            }
        }
    }

    private static func run(batched: Bool) async throws -> (result: ExecutionResult, queries: [String]) {
        try await TemporaryDatabase.withWriter(Self.emptyDatabase) { pool in
            try Self.seed(pool)
            let log = QueryLog()
            let service = try Self.service(pool, log: log, batched: batched)
            let outcome = await service.execute(
                GraphQLRequest(query: "{ items { id owner { id name } } }"), allowsMutations: true, requestID: "t",
                context: Context(owners: Self.ownerLoader(pool, log: log)))
            return (outcome.result, log.all)
        }
    }

    @Test func aListOfFiftyItemsLoadsItsOwnersInOneBatchedQuery() async throws {
        let (result, queries) = try await Self.run(batched: true)
        let placeholders = Array(repeating: "?", count: 10).joined(separator: ", ")
        #expect(queries == [
            "SELECT id, owner_id FROM item ORDER BY id",
            "SELECT id, name FROM owner WHERE id IN (\(placeholders))",
        ])
        #expect(result.errors.isEmpty)
        #expect(result.data?["items"]?[0] == ["id": 1, "owner": ["id": 2, "name": "owner 2"]])
        #expect(result.data?["items"]?[49] == ["id": 50, "owner": ["id": 1, "name": "owner 1"]])
    }

    @Test func withoutTheLoaderTheSameQueryIssuesOneQueryPerItem() async throws {
        let (batchedResult, _) = try await Self.run(batched: true)
        let (result, queries) = try await Self.run(batched: false)
        #expect(queries.count == 51)
        #expect(result.data == batchedResult.data)
    }

    @Test func keysRequestedBeforeTheFirstAwaitShareOneBatchAndRepeatsAreCached() async throws {
        let batches = Mutex<[[Int]]>([])
        let loader = DataLoader<Int, String> { keys in
            batches.withLock { $0.append(keys) }
            return Dictionary(uniqueKeysWithValues: keys.filter { $0 != 3 }.map { ($0, "v\($0)") })
        }
        let first = loader.load(1)
        let second = loader.load(2)
        let missing = loader.load(3)
        let repeated = loader.load(1)
        #expect(try await second() == "v2")
        #expect(try await first() == "v1")
        #expect(try await missing() == nil)
        #expect(try await repeated() == "v1")
        #expect(try await loader.loadMany([1, 4, 5]) == ["v1", "v4", "v5"])
        #expect(batches.withLock { $0 } == [[1, 2, 3], [4, 5]])
    }

    @Test func batchesAreSplitAtTheirMaximumSize() async throws {
        let batches = Mutex<[[Int]]>([])
        let loader = DataLoader<Int, Int>(maxBatchSize: 2) { keys in
            batches.withLock { $0.append(keys) }
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) })
        }
        #expect(try await loader.loadMany([1, 2, 3]) == [1, 2, 3])
        #expect(batches.withLock { $0 } == [[1, 2], [3]])
    }

    @Test func aFailedBatchFailsEveryKeyInIt() async throws {
        struct Failure: Error {}
        let loader = DataLoader<Int, Int> { _ in throw Failure() }
        let first = loader.load(1)
        let second = loader.load(2)
        await #expect(throws: Failure.self) { try await first() }
        await #expect(throws: Failure.self) { try await second() }
    }

    @Test func concurrentWaitersShareTheRunningBatch() async throws {
        let calls = Mutex(0)
        let loader = DataLoader<Int, Int> { keys in
            calls.withLock { $0 += 1 }
            await Task.yield()
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, $0 * 10) })
        }
        let thunks = (1...20).map(loader.load)
        let values = try await withThrowingTaskGroup(of: Int?.self) { group in
            for thunk in thunks { group.addTask { try await thunk() } }
            var values: [Int] = []
            for try await value in group { values.append(value ?? -1) }
            return values.sorted()
        }
        #expect(values == (1...20).map { $0 * 10 })
        #expect(calls.withLock { $0 } == 1)
    }

    /// A group whose read records each call and the loads it ran (its context is the call's number).
    private final class Reads: Sendable {
        private final class Calls: Sendable {
            let loads = Mutex<[[String]]>([])
        }

        private let calls: Calls
        let group: LoaderGroup<Int>

        init(failing: Bool = false) {
            struct Failure: Error {}
            let calls = Calls()
            self.calls = calls
            group = LoaderGroup<Int> { loads in
                if failing { throw Failure() }
                let number = calls.loads.withLock { $0.append([]); return $0.count }
                loads(number)
            }
        }

        func log(_ load: String, in read: Int) { calls.loads.withLock { $0[read - 1].append(load) } }
        var all: [[String]] { calls.loads.withLock { $0 } }
    }

    @Test func theLoadersOfAGroupCollectingKeysDispatchTogetherInOneRead() async throws {
        let reads = Reads()
        let names = DataLoader<Int, String>(group: reads.group) { keys, read in
            reads.log("names \(keys)", in: read)
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, "n\($0)") })
        }
        let squares = DataLoader<Int, Int>(group: reads.group) { keys, read in
            reads.log("squares \(keys)", in: read)
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, $0 * $0) })
        }
        let name = names.load(1)
        let otherName = names.load(2)
        let square = squares.load(3)
        #expect(try await square() == 9)
        #expect(try await name() == "n1")
        #expect(try await otherName() == "n2")
        #expect(try await names.load(1)() == "n1", "cached")
        #expect(try await names.load(4)() == "n4")
        #expect(reads.all == [["names [1, 2]", "squares [3]"], ["names [4]"]])
    }

    @Test func aFailedGroupReadFailsEveryBatchItTook() async throws {
        let reads = Reads(failing: true)
        let names = DataLoader<Int, String>(group: reads.group) { keys, _ in Dictionary(uniqueKeysWithValues: keys.map { ($0, "n\($0)") }) }
        let squares = DataLoader<Int, Int>(group: reads.group) { keys, _ in Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) }) }
        let name = names.load(1)
        let square = squares.load(2)
        await #expect(throws: (any Error).self) { try await name() }
        await #expect(throws: (any Error).self) { try await square() }
        #expect(reads.all.isEmpty)
    }
}
