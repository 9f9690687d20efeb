import Support

/// An identity provider's key set, fetched on demand and cached for as long as the provider
/// allows, or a fixed set read from a local file.
///
/// - The set is fetched on first use and again once its lifetime (the response's `max-age`,
///   clamped to `Configuration`'s bounds) has passed.
/// - A token naming a `kid` the set lacks forces a refetch (the provider may have rotated its
///   keys), at most once per `refetchInterval`, so tokens with made-up `kid`s cannot make
///   the server hammer the provider.
/// - When a fetch fails, the last good set keeps serving until `gracePeriod` after it
///   expired, and no new fetch is tried for `refetchInterval`.
/// - Concurrent callers share one fetch.
public actor JWKSCache {
    /// Lifetimes and rate limits.
    public struct Configuration: Sendable, Hashable {
        /// The lifetime of a set whose response had no `max-age`.
        public var defaultLifetime: Duration
        /// The shortest lifetime, even for `no-store`/`no-cache`: every sign-in must not
        /// become a request to the provider.
        public var minimumLifetime: Duration
        /// The longest lifetime, so rotations are noticed even under a very long `max-age`.
        public var maximumLifetime: Duration
        /// The least time between two fetches forced by unknown `kid`s, and between a failed
        /// fetch and the next attempt.
        public var refetchInterval: Duration
        /// How long after expiry the last good set still serves while fetches fail.
        public var gracePeriod: Duration

        /// Defaults: one hour without `max-age`, lifetimes between one minute and one day,
        /// one forced refetch per minute, twelve hours of grace.
        public init(
            defaultLifetime: Duration = .seconds(3600), minimumLifetime: Duration = .seconds(60),
            maximumLifetime: Duration = .seconds(86_400), refetchInterval: Duration = .seconds(60),
            gracePeriod: Duration = .seconds(12 * 3600)
        ) {
            self.defaultLifetime = defaultLifetime
            self.minimumLifetime = minimumLifetime
            self.maximumLifetime = maximumLifetime
            self.refetchInterval = refetchInterval
            self.gracePeriod = gracePeriod
        }
    }

    /// Fetches the key set (an HTTP GET of the provider's `jwks_uri`).
    public typealias Fetch = @Sendable () async throws -> JWKSFetchResult
    /// Monotonic time since an arbitrary fixed point.
    public typealias Clock = @Sendable () -> Duration

    private let configuration: Configuration
    private let clock: Clock
    /// Nil for a fixed set.
    private let fetch: Fetch?

    private var keys: JSONWebKeySet?
    private var expiresAt: Duration = .zero
    private var lastForcedRefetch: Duration?
    private var lastFailure: Duration?
    private var inFlight: Task<Void, Never>?

    /// A cache fetching through `fetch`, on the monotonic clock unless another is given.
    public init(
        configuration: Configuration = Configuration(),
        clock: @escaping Clock = { .nanoseconds(Int64(MonotonicClock.nanoseconds())) },
        fetch: @escaping Fetch
    ) {
        self.configuration = configuration
        self.clock = clock
        self.fetch = fetch
    }

    /// A fixed set, never refetched.
    public init(keys: JSONWebKeySet) {
        configuration = Configuration()
        clock = { .zero }
        fetch = nil
        self.keys = keys
    }

    /// A fixed set read from the contents of a local JWKS file.
    ///
    /// - Throws: `.malformedKeySet` when the contents are not a JWKS document.
    public init(localFileContents: [UInt8]) throws(JOSEError) {
        self.init(keys: try JSONWebKeySet(json: localFileContents))
    }

    /// The key for a token with `header`, fetching or refetching the set when needed.
    ///
    /// - Throws: `.unknownKey` when the set, even refetched, has no such key;
    ///   `.keySetUnavailable` when the set cannot be fetched and no recent copy exists.
    public func key(for header: JWSHeader) async throws(JOSEError) -> JSONWebKey {
        guard fetch != nil else {
            guard let key = keys?.key(for: header) else { throw JOSEError(.unknownKey, "no key for the token's kid") }
            return key
        }
        var fetched = false
        if keys == nil || clock() >= expiresAt, mayAttemptFetch(at: clock()) {
            await refresh()
            fetched = true
        }
        guard let current = usableKeys(at: clock()) else {
            throw JOSEError(.keySetUnavailable, "the provider's key set could not be fetched")
        }
        if let key = current.key(for: header) { return key }
        let now = clock()
        if !fetched, lastForcedRefetch.map({ now - $0 >= configuration.refetchInterval }) ?? true,
            mayAttemptFetch(at: now)
        {
            lastForcedRefetch = now
            await refresh()
            if let key = usableKeys(at: clock())?.key(for: header) { return key }
        }
        throw JOSEError(.unknownKey, "no key for the token's kid")
    }

    /// The set currently held, if any (expired or not).
    public var currentKeys: JSONWebKeySet? { keys }

    private func mayAttemptFetch(at now: Duration) -> Bool {
        lastFailure.map { now - $0 >= configuration.refetchInterval } ?? true
    }

    private func usableKeys(at now: Duration) -> JSONWebKeySet? {
        guard let keys, now < expiresAt + configuration.gracePeriod else { return nil }
        return keys
    }

    /// Fetches the set, or waits for the fetch already under way.
    private func refresh() async {
        if let inFlight {
            await inFlight.value
            return
        }
        // The task is awaited here and by every caller that joins it, never left running alone.
        let task = Task { await self.performFetch() }
        inFlight = task
        await task.value
        inFlight = nil
    }

    private func performFetch() async {
        guard let fetch else { return }
        do {
            let result = try await fetch()
            let set = try JSONWebKeySet(json: result.body)
            let lifetime = min(
                max(result.maxAge ?? configuration.defaultLifetime, configuration.minimumLifetime),
                configuration.maximumLifetime)
            keys = set
            expiresAt = clock() + lifetime
            lastFailure = nil
        } catch {
            lastFailure = clock()
        }
    }
}
