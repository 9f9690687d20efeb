import Foundation
import GraphQL
import HearthHTTP
import Testing

/// Home-screen widgets through the binary: tokens, the feed, the one-tap actions.
extension ServerProcess {
    /// `createWidgetToken` as `person`; returns the secret and the token's id.
    func widgetToken(as person: Person, label: String = "Kitchen iPad") throws -> (secret: String, id: String) {
        let made = try graphQL(
            "mutation($input: CreateWidgetTokenInput!) { createWidgetToken(input: $input) { token widgetToken { id label } } }",
            variables: Self.input(["label": .string(label)]), token: person.token)
        let secret = try #require(made.data?["createWidgetToken"]?["token"]?.stringValue, "\(made.json)")
        let id = try #require(made.data?["createWidgetToken"]?["widgetToken"]?["id"]?.stringValue, "\(made.json)")
        return (secret, id)
    }

    /// `GET /widget/feed` with `token` as the bearer (none when nil) and extra header lines.
    func widgetFeed(token: String?, headers: String = "") throws -> HTTPTestClient.Response {
        try get("/widget/feed", headers: (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + headers)
    }

    /// The feed's document read with `token`, and its `ETag`.
    func widgetDocument(token: String) throws -> (json: JSON, etag: String) {
        let response = try widgetFeed(token: token)
        try #require(response.status == 200, "\(response.status) \(response.text)")
        return (try JSON(parsing: response.body), try #require(response.headers["ETag"]))
    }

    /// The titles of the feed's entries, in order, read with `token`.
    func widgetTitles(token: String) throws -> [String] {
        guard case .array(let entries)? = try widgetDocument(token: token).json["entries"] else { return [] }
        return entries.compactMap { $0["title"]?.stringValue }
    }

    /// `method` of the path of the absolute `url` (an action link) with `token` as the bearer (none
    /// when nil); the status and the JSON answer's `status`.
    func widgetAction(_ url: String, token: String?, method: String = "POST") throws -> (status: Int, outcome: String?) {
        let (status, json) = try widgetActionResponse(url, token: token, method: method)
        return (status, json?["status"]?.stringValue)
    }

    /// ``widgetAction(_:token:method:)``'s status and whole JSON answer.
    func widgetActionResponse(_ url: String, token: String?, method: String = "POST") throws -> (status: Int, json: JSON?) {
        let path = try #require(url.range(of: "/widget/actions/").map { String(url[$0.lowerBound...]) }, "\(url)")
        let client = try connect()
        defer { client.close() }
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        try client.send("\(method) \(path) HTTP/1.1\r\nHost: e2e\r\n\(authorization)Content-Length: 0\r\n\r\n")
        let response = try client.readResponse()
        return (response.status, try? JSON(parsing: response.body))
    }
}
