import Foundation
import GraphQL
import HearthHTTP

/// A stand-in GraphQL endpoint on a loopback port for the developer CLI's cases the real
/// server cannot produce: `whoami` answers with the Authorization header and `echo` with the
/// variables; a document containing `fail` gets a GraphQL error and `teapot` HTTP 418; any
/// other document gets fixed data streamed with chunked transfer coding.
final class FakeGraphQLEndpoint {
    private let server: HTTPServer
    /// The endpoint's URL, `http://127.0.0.1:PORT/graphql`.
    let url: String

    init() throws {
        var router = Router()
        router.post("/graphql") { request, responder in
            Self.answer(request, responder)
        }
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        server = HTTPServer(configuration: configuration, router: router)
        let address = try server.start()
        url = "http://127.0.0.1:\(address.port)/graphql"
    }

    func stop() {
        server.shutdown(gracePeriod: .seconds(1))
        server.waitUntilStopped()
    }

    private static func answer(_ request: HTTPRequest, _ responder: HTTPResponder) {
        let body = (try? JSON(parsing: request.body)) ?? .null
        guard case .string(let query)? = body["query"] else {
            responder.send(json(["errors": [["message": "no query"]]], status: .badRequest))
            return
        }
        if query.contains("teapot") {
            responder.send(json(["errors": [["message": "I'm a teapot"]]], status: HTTPStatus(code: 418)))
        } else if query.contains("fail") {
            responder.send(json(["errors": [["message": "boom", "path": ["fail"]]], "data": nil]))
        } else if query.contains("whoami") {
            let authorization = request.headers.first(name: "Authorization").map(JSON.string) ?? .null
            responder.send(json(["data": ["whoami": authorization]]))
        } else if query.contains("echo") {
            responder.send(json(["data": ["echo": body["variables"]?["value"] ?? .null]]))
        } else {
            let writer = responder.sendHead(HTTPResponse(headers: ["Content-Type": "application/graphql-response+json"]))
            writer.write(Array(#"{"data":{"serverInfo":{"version":"1.2.3","#.utf8))
            writer.write(Array(#""startedAt":"2026-01-01T00:00:00Z"}}}"#.utf8))
            writer.finish()
        }
    }

    private static func json(_ value: JSON, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/graphql-response+json"], body: value.serialized())
    }
}
