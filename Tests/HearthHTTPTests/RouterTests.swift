@testable import HearthHTTP
import Testing

@Suite struct RouterTests {
    private var router: Router {
        var router = Router()
        router.get("/items") { _, _ in }
        router.post("/items") { _, _ in }
        router.get("/items/:id") { _, _ in }
        router.on(.delete, "/items/:id") { _, _ in }
        router.get("/items/special") { _, _ in }
        router.get("/users/:user/items/:item") { _, _ in }
        return router
    }

    private func describe(_ resolution: Router.Resolution) -> String {
        switch resolution {
        case let .matched(pattern, _, parameters):
            "\(pattern) \(parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        case .notFound:
            "404"
        case .methodNotAllowed(let allow):
            "405 \(allow)"
        case let .webSocket(pattern, _, _):
            "websocket \(pattern)"
        }
    }

    @Test(arguments: [
        ("GET", "/items", "/items "),
        ("POST", "/items", "/items "),
        ("HEAD", "/items", "/items "),
        ("PUT", "/items", "405 GET, HEAD, POST"),
        ("GET", "/items/7", "/items/:id id=7"),
        ("DELETE", "/items/7", "/items/:id id=7"),
        ("GET", "/items/special", "/items/special "),
        ("DELETE", "/items/special", "405 GET, HEAD"),
        ("PATCH", "/items/7", "405 DELETE, GET, HEAD"),
        ("GET", "/users/ann/items/3", "/users/:user/items/:item item=3,user=ann"),
        ("GET", "/items/", "404"),
        ("GET", "/items/7/more", "404"),
        ("GET", "/nothing", "404"),
    ])
    func resolvesMethodAndPath(_ method: String, _ path: String, _ expected: String) {
        #expect(describe(router.resolve(method: HTTPMethod(method), path: path[...])) == expected)
    }
}

@Suite struct AcceptEncodingTests {
    @Test(arguments: [
        ("gzip", true),
        ("GZIP", true),
        ("deflate, gzip;q=0.5", true),
        ("x-gzip", true),
        ("gzip;q=0", false),
        ("gzip; q=0.000", false),
        ("gzip;q=0.001", true),
        ("*", true),
        ("*;q=0", false),
        ("gzip;q=0, *", false),
        ("identity", false),
        ("", false),
        ("br, deflate", false),
    ])
    func allowsGzipOnlyWithANonZeroQuality(_ header: String, _ allowed: Bool) {
        #expect(AcceptEncoding.allowsGzip(header) == allowed)
    }
}
