import Foundation
import GraphQL
import HearthHTTP
import Testing

extension ServerProcess {
    /// Sends `method /.well-known/hearth` with `Host: host` and any extra header lines
    /// (`Name: value\r\n` each) on a new connection.
    func discovery(method: String = "GET", host: String = "e2e", headers: String = "") throws -> HTTPTestClient.Response {
        let client = try connect()
        defer { client.close() }
        try client.send("\(method) /.well-known/hearth HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\(headers)\r\n")
        return try client.readResponse()
    }

    /// The discovery document for a request to `host`, parsed; records an issue unless it is a
    /// 200 JSON response a web page of any origin may read.
    func discoveryDocument(host: String = "e2e", headers: String = "") throws -> JSON {
        let response = try discovery(host: host, headers: headers)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(response.headers["Cache-Control"] == "public, max-age=300")
        return try JSON(parsing: response.body)
    }

    /// What `pushConfiguration` answers signed out: the Web Push key and the FCM project.
    func pushConfiguration() throws -> JSON {
        let answer = try graphQL("{ pushConfiguration { vapidPublicKey fcmProjectId } }")
        return try #require(answer.data?["pushConfiguration"], "\(answer.json)")
    }
}
