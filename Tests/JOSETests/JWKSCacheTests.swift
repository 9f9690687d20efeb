import JOSE
import Testing

@Suite struct JWKSCacheTests {
    let clock = ManualClock()
    let rsaHeader = JWSHeader(algorithm: .RS256, keyID: "rsa-1")

    func cache(_ endpoint: FakeKeySetEndpoint, _ configuration: JWKSCache.Configuration = .init()) -> JWKSCache {
        JWKSCache(configuration: configuration, clock: clock.function, fetch: endpoint.fetch)
    }

    func expectError(_ code: JOSEError.Code, _ body: () async throws(JOSEError) -> JSONWebKey) async {
        do {
            _ = try await body()
            Issue.record("a key was returned; expected \(code)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test func fetchesOnFirstUseAndServesFromCacheWithinMaxAge() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet, maxAge: .seconds(300))
        let cache = cache(endpoint)
        #expect(try await cache.key(for: rsaHeader).keyID == "rsa-1")
        clock.advance(by: .seconds(299))
        #expect(try await cache.key(for: JWSHeader(algorithm: .ES256, keyID: "ec-1")).keyID == "ec-1")
        #expect(endpoint.fetches == 1)
    }

    @Test func refetchesOnceTheLifetimeHasPassed() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet, maxAge: .seconds(300))
        let cache = cache(endpoint)
        _ = try await cache.key(for: rsaHeader)
        clock.advance(by: .seconds(300))
        _ = try await cache.key(for: rsaHeader)
        #expect(endpoint.fetches == 2)
    }

    @Test func clampsTheLifetimeToTheConfiguredBounds() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet, maxAge: .zero)
        let cache = cache(endpoint, .init(minimumLifetime: .seconds(30), maximumLifetime: .seconds(600)))
        _ = try await cache.key(for: rsaHeader)
        clock.advance(by: .seconds(29))
        _ = try await cache.key(for: rsaHeader)
        #expect(endpoint.fetches == 1)
        endpoint.serve(Fixtures.keySet, maxAge: .seconds(1_000_000))
        clock.advance(by: .seconds(1))
        _ = try await cache.key(for: rsaHeader)
        clock.advance(by: .seconds(600))
        _ = try await cache.key(for: rsaHeader)
        #expect(endpoint.fetches == 3)
    }

    @Test func refetchesOnAnUnknownKidAndVerifiesATokenFromTheRotatedKey() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet)
        let cache = cache(endpoint)
        _ = try await cache.key(for: rsaHeader)
        // The provider rotates: a new key appears and tokens start naming it.
        let rotated = JSONWebKeySet(keys: [Fixtures.otherRSA.verificationKey(keyID: "rsa-2")])
        endpoint.serve(rotated)
        let token = try JWTSigner(key: Fixtures.otherRSA, keyID: "rsa-2").sign(Fixtures.claims())
        let verified = try await JWTVerifier(algorithms: [.RS256])
            .verify(token, requirements: Fixtures.requirements, at: Fixtures.now, keys: cache)
        #expect(verified.header.keyID == "rsa-2")
        #expect(endpoint.fetches == 2)
    }

    @Test func forcesAtMostOneRefetchPerIntervalForUnknownKids() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet)
        let cache = cache(endpoint, .init(refetchInterval: .seconds(60)))
        for attempt in 0..<5 {
            await expectError(.unknownKey) { () async throws(JOSEError) in
                try await cache.key(for: JWSHeader(algorithm: .RS256, keyID: "random-\(attempt)"))
            }
        }
        #expect(endpoint.fetches == 2)  // the first fetch, and one forced refetch
        clock.advance(by: .seconds(60))
        await expectError(.unknownKey) { () async throws(JOSEError) in
            try await cache.key(for: JWSHeader(algorithm: .RS256, keyID: "random-again"))
        }
        #expect(endpoint.fetches == 3)
    }

    @Test func servesTheLastGoodSetWhileFetchesFailWithinTheGracePeriod() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet, maxAge: .seconds(300))
        let cache = cache(endpoint, .init(refetchInterval: .seconds(60), gracePeriod: .seconds(3600)))
        _ = try await cache.key(for: rsaHeader)
        endpoint.fail()
        clock.advance(by: .seconds(300))
        #expect(try await cache.key(for: rsaHeader).keyID == "rsa-1")
        #expect(endpoint.fetches == 2)
        // Within the retry interval after a failure the provider is not asked again.
        clock.advance(by: .seconds(30))
        _ = try await cache.key(for: rsaHeader)
        #expect(endpoint.fetches == 2)
        clock.advance(by: .seconds(3600))
        await expectError(.keySetUnavailable) { () async throws(JOSEError) in try await cache.key(for: rsaHeader) }
        #expect(endpoint.fetches == 3)
    }

    @Test func recoversWhenTheProviderComesBack() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet)
        endpoint.fail()
        let cache = cache(endpoint, .init(refetchInterval: .seconds(60)))
        await expectError(.keySetUnavailable) { () async throws(JOSEError) in try await cache.key(for: rsaHeader) }
        await expectError(.keySetUnavailable) { () async throws(JOSEError) in try await cache.key(for: rsaHeader) }
        #expect(endpoint.fetches == 1)
        endpoint.serve(Fixtures.keySet)
        clock.advance(by: .seconds(60))
        #expect(try await cache.key(for: rsaHeader).keyID == "rsa-1")
    }

    @Test func treatsAnUnparsableDocumentAsAFailedFetch() async throws {
        let cache = JWKSCache(clock: clock.function) { JWKSFetchResult(body: Array("<html>".utf8), maxAge: nil) }
        await expectError(.keySetUnavailable) { () async throws(JOSEError) in try await cache.key(for: rsaHeader) }
    }

    @Test func servesAFixedSetFromALocalFileWithoutFetching() async throws {
        let cache = try JWKSCache(localFileContents: Fixtures.keySet.jsonRepresentation())
        #expect(try await cache.key(for: rsaHeader).keyID == "rsa-1")
        await expectError(.unknownKey) { () async throws(JOSEError) in
            try await cache.key(for: JWSHeader(algorithm: .RS256, keyID: "rsa-2"))
        }
        #expect(throws: JOSEError.self) { try JWKSCache(localFileContents: Array("{}".utf8)) }
    }

    @Test func concurrentCallersShareOneFetch() async throws {
        let endpoint = FakeKeySetEndpoint(serving: Fixtures.keySet)
        let cache = cache(endpoint)
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { try await cache.key(for: rsaHeader).keyID } }
            for try await keyID in group { #expect(keyID == "rsa-1") }
        }
        #expect(endpoint.fetches == 1)
    }
}
