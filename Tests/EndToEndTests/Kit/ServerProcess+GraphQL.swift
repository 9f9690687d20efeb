import Foundation
import GraphQL
import HearthHTTP
import HearthStore

extension ServerProcess {
    /// The response of one GraphQL operation over HTTP.
    struct GraphQLResponse {
        /// The HTTP status.
        let status: Int
        /// The parsed body.
        let json: JSON

        /// `data` of the response.
        var data: JSON? { json["data"] }
        /// The first error's `extensions.code`.
        var errorCode: String? { json["errors"]?[0]?["extensions"]?["code"]?.stringValue }
        /// The first error's `extensions.reason`.
        var errorReason: String? { json["errors"]?[0]?["extensions"]?["reason"]?.stringValue }
        /// The first error's `extensions`.
        var errorExtensions: JSON? { json["errors"]?[0]?["extensions"] }
    }

    /// Posts `query` with `variables` to `/graphql`, with `Authorization: Bearer token` when a
    /// token is given and any extra header lines (`Name: value\r\n` each), on a new connection.
    func graphQL(_ query: String, variables: [String: JSON] = [:], token: String? = nil, headers: String = "") throws -> GraphQLResponse {
        try Self.graphQL(at: address, query, variables: variables, token: token, headers: headers)
    }

    /// ``graphQL(_:variables:token:headers:)`` of the server at `address`: callable from other
    /// threads at once (each call opens its own connection), as tests of concurrent requests need.
    static func graphQL(
        at address: SocketAddress, _ query: String, variables: [String: JSON] = [:], token: String? = nil, headers: String = ""
    ) throws -> GraphQLResponse {
        var request: OrderedMap<String, JSON> = ["query": .string(query)]
        if !variables.isEmpty {
            var map = OrderedMap<String, JSON>()
            for (name, value) in variables.sorted(by: { $0.key < $1.key }) { map[name] = value }
            request["variables"] = .object(map)
        }
        var writer = JSONWriter()
        writer.value(.object(request))
        let body = writer.takeBytes()
        var head = "POST /graphql HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\nContent-Type: application/json\r\n"
        head += "Accept: application/graphql-response+json\r\nContent-Length: \(body.count)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += headers
        let client = try HTTPTestClient(connectingTo: address)
        defer { client.close() }
        try client.send(Array((head + "\r\n").utf8) + body)
        let response = try client.readResponse()
        return GraphQLResponse(status: response.status, json: try JSON(parsing: response.body))
    }
}

extension JSON {
    /// The string this value holds, if it is one.
    var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The number this value holds, if it is one (an integer too).
    var doubleValue: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        default: nil
        }
    }
}

extension ServerProcess {
    /// The first column of the first row of `sql`, read from the server's database (WAL
    /// mode lets the test read while the server runs).
    func databaseText(_ sql: String) throws -> String? {
        try TemporaryDatabase.withExisting(database) { try $0.read { try $0.scalar(String.self, sql) } }
    }
}

extension ServerProcess {
    /// Runs `sql` on the server's database while it runs: how a test moves a stored expiry into
    /// the past instead of waiting for it. The server must not cache what `sql` changes.
    /// `arguments` fill its `?` placeholders (bytes, which the stores write differently).
    func databaseWrite(_ sql: String, _ arguments: StatementArguments = []) throws {
        try TemporaryDatabase.withExisting(database) { try $0.write { try $0.execute(sql, arguments) } }
    }
}
