import GraphQL
import HearthAPI
import HearthHTTP
import Testing

struct PersistedQueryTests {
    /// SHA-256 of `{ hello }` (`printf '{ hello }' | sha256sum`).
    static let helloHash = "001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065"

    private func body(query: String?, hash: String, version: Int = 1) -> String {
        var members: OrderedMap<String, JSON> = [:]
        if let query { members["query"] = .string(query) }
        members["extensions"] = ["persistedQuery": ["version": .int(version), "sha256Hash": .string(hash)]]
        return JSON.object(members).jsonText
    }

    @Test func unknownHashIsNotFoundWith200AsApolloClientsExpect() async throws {
        let handler = try TestSchema.handler()
        let response = await handler.respond(to: Requests.post(
            body(query: nil, hash: String(repeating: "a", count: 64)),
            accept: "application/graphql-response+json, application/json;q=0.9"))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(try Requests.firstCode(response) == ErrorCode.persistedQueryNotFound)
        #expect(try Requests.json(response)["errors"]?[0]?["message"] == "PersistedQueryNotFound")
    }

    @Test func unknownHashIs400ForClientsAcceptingOnlyGraphQLResponseJSON() async throws {
        let handler = try TestSchema.handler()
        let response = await handler.respond(to: Requests.post(
            body(query: nil, hash: String(repeating: "a", count: 64)), accept: "application/graphql-response+json"))
        #expect(response.status == .badRequest)
    }

    @Test func queryWithItsHashIsStoredThenServedByHashAlsoOverGet() async throws {
        let handler = try TestSchema.handler()
        let hash = Self.helloHash
        let registered = await handler.respond(to: Requests.post(body(query: "{ hello }", hash: hash)))
        #expect(try Requests.json(registered) == ["data": ["hello": "Hello, world"]])
        let byHash = await handler.respond(to: Requests.post(body(query: nil, hash: hash)))
        #expect(try Requests.json(byHash) == ["data": ["hello": "Hello, world"]])
        let extensions = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
        let overGet = await handler.respond(to: Requests.get(
            "extensions=" + extensions.utf8.map { String(format: $0) }.joined()))
        #expect(try Requests.json(overGet) == ["data": ["hello": "Hello, world"]])
        #expect(handler.service.persistedQueries.statistics.hits == 2)
    }

    @Test func mismatchedHashIsRejectedWith400AndNotStored() async throws {
        let handler = try TestSchema.handler()
        let wrong = String(repeating: "0", count: 64)
        let response = await handler.respond(to: Requests.post(body(query: "{ hello }", hash: wrong), accept: "application/json"))
        #expect(response.status == .badRequest)
        #expect(try Requests.firstCode(response) == ErrorCode.persistedQueryHashMismatch)
        #expect(handler.service.persistedQueries.statistics.count == 0)
    }

    @Test func unsupportedVersionIsRejected() async throws {
        let handler = try TestSchema.handler()
        let response = await handler.respond(to: Requests.post(body(query: nil, hash: String(repeating: "a", count: 64), version: 2)))
        #expect(response.status == .badRequest)
        #expect(try Requests.firstCode(response) == ErrorCode.badRequest)
    }

    @Test func persistedQueryBytesAtTheEstimateKeepTheQueryAndOneLessDoesNot() async throws {
        let estimate = GraphQLService.retainedBytes(ofPersistedQuery: "{ hello }", hash: Self.helloHash)
        for (bytes, kept) in [(estimate, true), (estimate - 1, false)] {
            var limits = GraphQLLimits()
            limits.persistedQueryBytes = bytes
            let handler = try TestSchema.handler(limits: limits)
            _ = await handler.respond(to: Requests.post(body(query: "{ hello }", hash: Self.helloHash)))
            let byHash = await handler.respond(to: Requests.post(body(query: nil, hash: Self.helloHash), accept: "application/json"))
            #expect(try Requests.firstCode(byHash) == (kept ? nil : ErrorCode.persistedQueryNotFound))
            #expect(handler.service.persistedQueries.statistics.cost == (kept ? estimate : 0))
        }
    }

    @Test func disabledPersistedQueriesSayNotSupported() async throws {
        for switchOff in [{ (limits: inout GraphQLLimits) in limits.persistedQueryEntries = 0 }, { $0.persistedQueryBytes = 0 }] {
            var limits = GraphQLLimits()
            switchOff(&limits)
            let handler = try TestSchema.handler(limits: limits)
            let response = await handler.respond(to: Requests.post(body(query: nil, hash: String(repeating: "a", count: 64)), accept: "application/json"))
            #expect(response.status == .ok)
            #expect(try Requests.firstCode(response) == ErrorCode.persistedQueryNotSupported)
        }
    }
}

extension String {
    /// Percent-encodes one UTF-8 byte unless it is unreserved.
    fileprivate init(format byte: UInt8) {
        let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        let hex = Array("0123456789ABCDEF")
        self = unreserved ? String(UnicodeScalar(byte)) : "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
    }
}
