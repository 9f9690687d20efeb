import JOSE
import Net
import Support

/// Fetches identity providers' key sets (JWKS) over HTTP(S) for their `JWKSCache`s. The
/// blocking HTTP client runs on a small worker pool of its own, never on an event loop or
/// Swift's cooperative threads; the caches already coalesce concurrent fetches and rate-limit
/// refetches, so the pool stays nearly idle.
struct KeySetFetcher: Sendable {
    /// Why a fetch returned no key set; the cache keeps serving its last good set.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let client: HTTPClient
    private let workers: WorkerPool
    private let logger: Logger

    /// A fetcher whose every request completes within `timeout`.
    init(timeout: Duration = .seconds(10), logger: Logger) {
        client = HTTPClient(configuration: .init(timeout: timeout))
        workers = WorkerPool(label: "key-set-fetch", concurrency: 2, queueLimit: 16)
        self.logger = logger
    }

    /// The fetch function of a cache of the key set at `url`.
    func fetch(_ url: HTTPURL) -> JWKSCache.Fetch {
        { [client, workers, logger] in
            do {
                let response = try await workers.run { try client.get(url, headers: [("Accept", "application/json")]) }
                guard response.status == 200 else { throw Failure(description: "\(url) answered HTTP \(response.status)") }
                logger.info("fetched identity provider keys", ["url": url.description])
                return JWKSFetchResult(body: response.body, cacheControl: response.header("Cache-Control"))
            } catch {
                logger.warning("fetching identity provider keys failed", ["url": url.description, "error": "\(error)"])
                throw error
            }
        }
    }
}
