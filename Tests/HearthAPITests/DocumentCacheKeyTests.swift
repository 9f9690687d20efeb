import GraphQL
import HearthAPI
import Testing

/// The document cache's key is the document's bytes and the operation name
/// (`GraphQLService.DocumentKey`, hashed with `KeyedHash`): the same bytes hit however the JSON
/// spelled them, and texts that are only canonically equivalent are two documents.
@Suite struct DocumentCacheKeyTests {
    private func post(_ handler: GraphQLHTTPHandler, _ query: String, operationName: String? = nil) async throws -> JSON {
        var members: OrderedMap<String, JSON> = ["query": .string(query)]
        if let operationName { members["operationName"] = .string(operationName) }
        return try Requests.json(await handler.respond(to: Requests.post(JSON.object(members).jsonText)))
    }

    @Test func theSameBytesHitWhateverTheJSONEscapes() async throws {
        let handler = try TestSchema.handler()
        let long = "query Long {\n" + String(repeating: "  hello\n", count: 200) + "}"
        #expect(try await post(handler, long) == ["data": ["hello": "Hello, world"]])
        // The same text with its line breaks and letters escaped differently in the JSON.
        let escaped = #"{"query":"query Long {\u000a"# + String(repeating: #"  \u0068ello\n"#, count: 200) + #"}"}"#
        let response = try Requests.json(await handler.respond(to: Requests.post(escaped)))
        #expect(response == ["data": ["hello": "Hello, world"]])
        let statistics = handler.service.documentCache.statistics
        #expect(statistics.misses == 1 && statistics.hits == 1 && statistics.count == 1)
    }

    @Test func canonicallyEquivalentTextsAreTwoDocuments() async throws {
        let handler = try TestSchema.handler()
        for text in ["{ hello } # caf\u{E9}", "{ hello } # cafe\u{301}", "{ hello } # caf\u{E9}"] {
            #expect(try await post(handler, text) == ["data": ["hello": "Hello, world"]])
        }
        let statistics = handler.service.documentCache.statistics
        #expect(statistics.misses == 2 && statistics.hits == 1 && statistics.count == 2)
    }

    @Test func theOperationNameIsPartOfTheKey() async throws {
        let handler = try TestSchema.handler()
        let text = "query A { hello } query B { hello }"
        for name in ["A", "B", "A"] {
            #expect(try await post(handler, text, operationName: name) == ["data": ["hello": "Hello, world"]])
        }
        let statistics = handler.service.documentCache.statistics
        #expect(statistics.misses == 2 && statistics.hits == 1)
    }
}
