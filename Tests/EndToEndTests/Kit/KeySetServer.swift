import HearthHTTP
import JOSE
import Synchronization

/// An identity provider's key-set endpoint on a free loopback port, as Google's
/// `/oauth2/v3/certs` answers: `GET /certs` with the JWKS the test published and a
/// `Cache-Control: public, max-age=…` header. Counts the fetches.
final class KeySetServer: Sendable {
    /// What is published, shared with the route.
    private final class Published: Sendable {
        let state: Mutex<(keys: JSONWebKeySet, fetches: Int)>
        init(_ keys: JSONWebKeySet) { state = Mutex((keys, 0)) }
    }

    private let server: HTTPServer
    private let published: Published
    /// The endpoint's address.
    let address: SocketAddress

    /// Starts serving `keys`.
    init(serving keys: JSONWebKeySet, maxAge: Int = 300) throws {
        let published = Published(keys)
        var router = Router()
        router.get("/certs") { _, responder in
            let body = published.state.withLock { state in
                state.fetches += 1
                return state.keys.jsonRepresentation()
            }
            responder.send(HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=\(maxAge)"], body: body))
        }
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoopCount = 1
        server = HTTPServer(configuration: configuration, router: router)
        address = try server.start()
        self.published = published
    }

    /// The key-set URL to give `hearth serve`.
    var url: String { "http://127.0.0.1:\(address.port)/certs" }

    /// Replaces the published keys (a rotation).
    func publish(_ keys: JSONWebKeySet) { published.state.withLock { $0.keys = keys } }

    /// How often the keys were fetched.
    var fetches: Int { published.state.withLock { $0.fetches } }

    /// Stops the endpoint.
    func stop() {
        server.shutdown(gracePeriod: .zero)
        server.waitUntilStopped()
    }
}
