import Dispatch
import HearthHTTP
import Support
import Synchronization
import Testing

/// Streamed bodies written with `writeWaiting`: the producer is held back by what the client has
/// not read, and learns when the client has gone.
extension LiveTests {
@Suite struct StreamFlowTests {
    /// What the producer of `/endless` did: how many chunks it wrote before `writeWaiting` said stop.
    final class Producer: Sendable {
        let chunks = Mutex<Int?>(nil)
        let ended = DispatchSemaphore(value: 0)
    }

    /// At most this many 64 KiB chunks (256 MiB): a producer that is not held back writes them all.
    static let cap = 4096

    static func routes(_ producer: Producer) -> (inout Router) -> Void {
        { router in
            router.get("/endless") { _, responder in
                let writer = responder.sendHead(HTTPResponse(headers: ["Content-Type": "application/octet-stream"]))
                DetachedThread.start(name: "test-producer") {
                    var written = 0
                    while written < cap, writer.writeWaiting([UInt8](repeating: 0x61, count: 65_536)) { written += 1 }
                    writer.finish()
                    producer.chunks.withLock { $0 = written }
                    producer.ended.signal()
                }
            }
        }
    }

    @Test func aProducerIsHeldBackByAnUnreadBodyAndStoppedWhenTheClientLeaves() throws {
        let producer = Producer()
        let live = try LiveServer(routes: Self.routes(producer))
        let client = try live.client()
        try client.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try client.readResponse(toHead: true)
        #expect(head.status == 200)
        client.close()
        #expect(producer.ended.wait(timeout: .now() + 20) == .success)
        let written = try #require(producer.chunks.withLock { $0 })
        #expect(written < Self.cap)
    }
}
}
