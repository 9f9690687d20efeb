import HearthHTTP
import Testing

@Suite struct LiveServerTests {
    @Test func answersAGetOverLoopback() throws {
        let live = try LiveServer { router in
            router.get("/hello") { _, responder in responder.send(.text("hi\n")) }
        }
        let client = try live.client()
        try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hi\n")
        #expect(response.headers["Content-Length"] == "3")
        #expect(response.headers["Date"] != nil)
        #expect(response.headers["X-Request-Id"] != nil)
    }
}
