import GraphQL
import HearthAPI
import HearthHTTP
import Support
import Testing

struct LimitsTests {
    private func code(_ query: String, _ limits: GraphQLLimits, variables: String = "{}") async throws -> String? {
        let handler = try TestSchema.handler(limits: limits)
        let body = JSON.object(["query": .string(query), "variables": try JSON(parsing: variables)]).jsonText
        return try Requests.firstCode(await handler.respond(to: Requests.post(body)))
    }

    private func nested(_ depth: Int) -> String {
        // `nested` fields down to depth - 1, then `name`: depth fields in all.
        String(repeating: "nested { ", count: depth - 1) + "name" + String(repeating: " }", count: depth - 1)
    }

    @Test func depthAtTheLimitPassesAndOneMoreFails() async throws {
        var limits = GraphQLLimits()
        limits.maxDepth = 5
        #expect(try await code("{ \(nested(5)) }", limits) == nil)
        #expect(try await code("{ \(nested(6)) }", limits) == ErrorCode.validationFailed)
    }

    @Test func defaultDepthAdmitsTheStandardIntrospectionQuery() async throws {
        let query = introspectionQuery(
            descriptions: true, specifiedByURL: true, directiveIsRepeatable: true, schemaDescription: true,
            inputValueDeprecation: true, oneOf: true)
        #expect(try await code(query, GraphQLLimits()) == nil)
    }

    @Test func aliasesAtTheLimitPassAndOneMoreFails() async throws {
        var limits = GraphQLLimits()
        limits.maxAliases = 3
        #expect(try await code("{ a: hello b: hello c: hello }", limits) == nil)
        #expect(try await code("{ a: hello b: hello c: hello d: hello }", limits) == ErrorCode.validationFailed)
    }

    @Test func complexityUsesTheRequestsVariables() async throws {
        var limits = GraphQLLimits()
        limits.complexity.maximum = 100
        let query = "query($n: Int) { numbers(first: $n) }"
        #expect(try await code(query, limits, variables: #"{"n":100}"#) == nil)
        #expect(try await code(query, limits, variables: #"{"n":101}"#) == ErrorCode.validationFailed)
    }

    @Test func complexityIsCheckedOnCachedDocumentsToo() async throws {
        var limits = GraphQLLimits()
        limits.complexity.maximum = 100
        let handler = try TestSchema.handler(limits: limits)
        let query = "query($n: Int) { numbers(first: $n) }"
        let small = await handler.respond(to: Requests.post(#"{"query":"\#(query)","variables":{"n":2}}"#))
        let large = await handler.respond(to: Requests.post(#"{"query":"\#(query)","variables":{"n":500}}"#))
        #expect(try Requests.json(small) == ["data": ["numbers": [0, 1]]])
        #expect(try Requests.firstCode(large) == ErrorCode.validationFailed)
        #expect(handler.service.documentCache.statistics.hits == 1)
    }

    @Test func aFixedCostIsCheckedAtItsEdgeOnCachedDocumentsToo() async throws {
        var limits = GraphQLLimits()
        limits.complexity.maximum = 100
        let handler = try TestSchema.handler(limits: limits)
        let atLimit = #"{"query":"{ numbers(first: 100) }"}"#
        let overLimit = #"{"query":"{ numbers(first: 101) }"}"#
        for _ in 0..<2 {
            #expect(try Requests.firstCode(await handler.respond(to: Requests.post(atLimit))) == nil)
            #expect(try Requests.firstCode(await handler.respond(to: Requests.post(overLimit))) == ErrorCode.validationFailed)
        }
        #expect(handler.service.documentCache.statistics.hits == 2)
    }

    @Test func tokensAtTheLimitPassAndOneMoreFails() async throws {
        var limits = GraphQLLimits()
        limits.maxTokens = 5
        // `{ a: hello }` is 5 tokens: { a : hello }.
        #expect(try await code("{ a: hello }", limits) == nil)
        #expect(try await code("{ a: hello b }", limits) == ErrorCode.parseFailed)
    }

    @Test func documentSizeAtTheLimitPassesAndOneMoreByteFails() async throws {
        var limits = GraphQLLimits()
        limits.maxDocumentBytes = 9
        #expect(try await code("{ hello }", limits) == nil)
        #expect(try await code("{ hello } ", limits) == ErrorCode.parseFailed)
    }

    @Test func selectionSetFieldsAtTheLimitPassAndOneMoreFails() async throws {
        var limits = GraphQLLimits()
        limits.maxSelectionSetFields = 3
        // Repeats count each time; fragments count where spread.
        #expect(try await code("{ hello hello ... on Query { hello } }", limits) == nil)
        #expect(try await code("{ nested { name name ...N } } fragment N on Nested { name }", limits) == nil)
        #expect(try await code("{ hello hello ... on Query { hello hello } }", limits) == ErrorCode.validationFailed)
        let handler = try TestSchema.handler(limits: limits)
        let response = await handler.respond(to: Requests.post(#"{"query":"{ nested { name ...N } } fragment N on Nested { name name name }"}"#))
        #expect(try Requests.json(response)["errors"]?[0]?["message"]
            == "The operation has a selection set of 4 fields (fragments counted where spread), more than the maximum of 3.")
    }

    @Test func aDocumentOverALimitIsRefusedBeforeTheSpecifiedRulesRun() async throws {
        var limits = GraphQLLimits()
        limits.maxSelectionSetFields = 2
        let handler = try TestSchema.handler(limits: limits)
        let response = await handler.respond(to: Requests.post(#"{"query":"{ hello hello nope }"}"#))
        let errors = try Requests.json(response)["errors"]
        #expect(errors == [["message": "The operation has a selection set of 3 fields (fragments counted where spread), more than the maximum of 2.",
                            "locations": [["line": 1, "column": 1]], "extensions": ["code": .string(ErrorCode.validationFailed)]]])
    }

    @Test func fieldComparisonsAtTheLimitPassAndOneMoreFails() async throws {
        var limits = GraphQLLimits()
        // The two `nested` (1), their sub-selections' one response name (1), the two `name` (1).
        let query = "{ nested { name } nested { name } }"
        limits.maxFieldComparisons = 3
        #expect(try await code(query, limits) == nil)
        limits.maxFieldComparisons = 2
        #expect(try await code(query, limits) == ErrorCode.validationFailed)
    }

    @Test func introspectionOffRefusesSchemaQueriesAndSuggestions() async throws {
        var limits = GraphQLLimits()
        limits.introspection = false
        let handler = try TestSchema.handler(limits: limits)
        let schemaQuery = await handler.respond(to: Requests.post(#"{"query":"{ __schema { queryType { name } } }"}"#))
        #expect(try Requests.json(schemaQuery)["errors"] != nil)
        let typo = await handler.respond(to: Requests.post(#"{"query":"{ helo }"}"#))
        let message = try Requests.json(typo)["errors"]?[0]?["message"]
        #expect(message == "Cannot query field \"helo\" on type \"Query\".")
        let typename = await handler.respond(to: Requests.post(#"{"query":"{ __typename }"}"#))
        #expect(try Requests.json(typename) == ["data": ["__typename": "Query"]])
    }

    @Test func introspectionOnKeepsSuggestions() async throws {
        let handler = try TestSchema.handler()
        let typo = await handler.respond(to: Requests.post(#"{"query":"{ helo }"}"#))
        let message = try Requests.json(typo)["errors"]?[0]?["message"]
        #expect(message == "Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?")
    }
}

struct ErrorMaskingTests {
    @Test func unexpectedErrorsAreMaskedAndLoggedWithTheRequestID() async throws {
        let sink = MemoryLogSink()
        let handler = try TestSchema.handler(logger: Logger(label: "test", sink: sink))
        let response = await handler.respond(to: Requests.post(#"{"query":"{ broken hello }"}"#, id: "abc-7"))
        let json = try Requests.json(response)
        #expect(json == [
            "errors": [[
                "message": "Internal server error (request id abc-7)",
                "locations": [["line": 1, "column": 3]],
                "path": ["broken"],
                "extensions": ["code": "INTERNAL_SERVER_ERROR", "requestId": "abc-7"],
            ]],
            "data": ["broken": nil, "hello": "Hello, world"],
        ])
        let log = sink.lines.joined(separator: "\n")
        #expect(log.contains("abc-7"))
        #expect(log.contains("connection to 10.0.0.5 refused"))
    }

    @Test func graphQLErrorsAndCodedErrorsAreKept() async throws {
        let handler = try TestSchema.handler()
        let response = await handler.respond(to: Requests.post(#"{"query":"{ refused coded }"}"#))
        let errors = try Requests.json(response)["errors"]
        #expect(errors?[0]?["message"] == "Not today.")
        #expect(errors?[1]?["message"] == "No such thing.")
        #expect(errors?[1]?["extensions"]?["code"] == "NOT_FOUND")
    }
}

struct DocumentCacheTests {
    @Test func repeatedDocumentsSkipParsingAndValidation() async throws {
        let handler = try TestSchema.handler()
        for _ in 0..<3 { _ = await handler.respond(to: Requests.post(#"{"query":"{ hello }"}"#)) }
        let statistics = handler.service.documentCache.statistics
        #expect(statistics.misses == 1)
        #expect(statistics.hits == 2)
        #expect(statistics.count == 1)
    }

    @Test func operationNamesAreCachedSeparately() async throws {
        let handler = try TestSchema.handler()
        let query = "query A { hello } query B { numbers }"
        let a = await handler.respond(to: Requests.post(#"{"query":"\#(query)","operationName":"A"}"#))
        let b = await handler.respond(to: Requests.post(#"{"query":"\#(query)","operationName":"B"}"#))
        #expect(try Requests.json(a) == ["data": ["hello": "Hello, world"]])
        #expect(try Requests.json(b) == ["data": ["numbers": [0, 1, 2]]])
        #expect(handler.service.documentCache.statistics.count == 2)
    }

    @Test func invalidDocumentsAreNotCached() async throws {
        let handler = try TestSchema.handler()
        _ = await handler.respond(to: Requests.post(#"{"query":"{ nope }"}"#))
        #expect(handler.service.documentCache.statistics.count == 0)
    }

    @Test func lruEvictsTheLeastRecentlyUsedEntry() {
        let cache = LRUCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        #expect(cache.value(for: "a") == 1)
        cache.insert(3, for: "c")
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        let statistics = cache.statistics
        #expect([statistics.hits, statistics.misses, statistics.evictions, statistics.count] == [3, 1, 1, 2])
    }

    @Test func zeroCapacityHoldsNothing() {
        let cache = LRUCache<String, Int>(capacity: 0)
        cache.insert(1, for: "a")
        #expect(cache.value(for: "a") == nil)
    }

    @Test func costEvictsTheLeastRecentlyUsedEntriesUntilTheNewOneFits() {
        let cache = LRUCache<String, Int>(capacity: 10, maxCost: 100)
        cache.insert(1, for: "a", cost: 40)
        cache.insert(2, for: "b", cost: 40)
        cache.insert(3, for: "c", cost: 20)
        #expect(cache.statistics.cost == 100)
        #expect(cache.value(for: "a") == 1)
        // 30 more: "b", the least recently used, goes; 90 remain.
        cache.insert(4, for: "d", cost: 30)
        #expect(cache.value(for: "b") == nil)
        #expect([cache.statistics.count, cache.statistics.cost, cache.statistics.evictions] == [3, 90, 1])
        // Replacing an entry replaces its cost.
        cache.insert(5, for: "a", cost: 10)
        #expect([cache.statistics.count, cache.statistics.cost] == [3, 60])
        // An entry costing the whole budget evicts everything else; one costing more is not kept.
        cache.insert(6, for: "e", cost: 100)
        #expect([cache.statistics.count, cache.statistics.cost] == [1, 100])
        cache.insert(7, for: "f", cost: 101)
        #expect(cache.value(for: "f") == nil)
        #expect(cache.value(for: "e") == 6)
    }

    @Test func documentCacheBytesAtTheEstimateKeepTheDocumentAndOneLessDoesNot() async throws {
        let query = "{ nested { name } hello }"
        let estimate = GraphQLService.retainedBytes(ofDocument: try Parser.parse(query), text: query)
        for (bytes, kept) in [(estimate, 1), (estimate - 1, 0)] {
            var limits = GraphQLLimits()
            limits.documentCacheBytes = bytes
            let handler = try TestSchema.handler(limits: limits)
            let response = await handler.respond(to: Requests.post(JSON.object(["query": .string(query)]).jsonText))
            #expect(try Requests.firstCode(response) == nil)
            #expect(handler.service.documentCache.statistics.count == kept)
            #expect(handler.service.documentCache.statistics.cost == kept * estimate)
        }
    }

    @Test func theDocumentCacheIsBoundedByBytesWhateverItsEntryCount() async throws {
        var limits = GraphQLLimits()
        let query = { (index: Int) in "{ a\(index): hello }" }
        let estimate = GraphQLService.retainedBytes(ofDocument: try Parser.parse(query(10)), text: query(10))
        limits.documentCacheBytes = 3 * estimate
        let handler = try TestSchema.handler(limits: limits)
        for index in 10..<20 {
            _ = await handler.respond(to: Requests.post(JSON.object(["query": .string(query(index))]).jsonText))
        }
        let statistics = handler.service.documentCache.statistics
        #expect([statistics.count, statistics.evictions] == [3, 7])
        #expect(statistics.cost <= limits.documentCacheBytes)
    }
}

struct IntrospectionDepthTests {
    @Test func introspectionNestingFieldsThreeTimesIsRefused() async throws {
        let handler = try TestSchema.handler()
        let twice = "{ __schema { types { fields { type { fields { name } } } } } }"
        let thrice = "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }"
        let allowed = await handler.respond(to: Requests.post(JSON.object(["query": .string(twice)]).jsonText))
        let refused = await handler.respond(to: Requests.post(JSON.object(["query": .string(thrice)]).jsonText))
        #expect(try Requests.firstCode(allowed) == nil)
        #expect(try Requests.firstCode(refused) == ErrorCode.validationFailed)
    }
}
