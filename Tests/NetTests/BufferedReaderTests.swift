import Net
import Testing

/// A connection that hands out scripted pieces, one per receive, then end of stream.
final class ScriptedConnection: Connection {
    let peer = "scripted:0"
    private var pieces: [[UInt8]]

    init(_ pieces: [String]) { self.pieces = pieces.map { Array($0.utf8) } }

    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(NetworkError) -> Int {
        guard !pieces.isEmpty else { return 0 }
        let count = min(buffer.count, pieces[0].count)
        buffer.copyBytes(from: pieces[0][..<count])
        pieces[0].removeFirst(count)
        if pieces[0].isEmpty { pieces.removeFirst() }
        return count
    }

    func send(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(NetworkError) {}
    func close() {}
}

struct BufferedReaderTests {
    private let deadline = Deadline.after(.seconds(5))

    private func lines(_ reader: inout BufferedReader) throws -> [String] {
        var lines: [String] = []
        while let line = try reader.readLine(maxLength: 64, deadline: deadline) {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }

    @Test func splitsLinesArrivingInArbitraryPiecesAndAcceptsBareLineFeeds() throws {
        var reader = BufferedReader(ScriptedConnection(["250-first\r", "\n250-sec", "ond\n250 last\r\n"]), chunkSize: 3)
        #expect(try lines(&reader) == ["250-first", "250-second", "250 last"])
    }

    @Test func returnsBufferedBytesBeforeReceivingMore() throws {
        var reader = BufferedReader(ScriptedConnection(["line\r\nrest", "more"]))
        _ = try reader.readLine(maxLength: 64, deadline: deadline)
        #expect(reader.bufferedCount == 4)
        #expect(try reader.read(maxCount: 10, deadline: deadline) == Array("rest".utf8))
        #expect(try reader.read(maxCount: 2, deadline: deadline) == Array("mo".utf8))
        #expect(try reader.read(maxCount: 10, deadline: deadline) == Array("re".utf8))
        #expect(try reader.read(maxCount: 10, deadline: deadline) == [])
    }

    @Test func refusesOverlongLinesAndStreamsEndingInsideALine() {
        var long = BufferedReader(ScriptedConnection([String(repeating: "a", count: 100) + "\r\n"]))
        let tooLong = #expect(throws: NetworkError.self) { try long.readLine(maxLength: 64, deadline: deadline) }
        #expect(tooLong?.code == .responseTooLarge)
        var cut = BufferedReader(ScriptedConnection(["250 no end"]))
        let truncated = #expect(throws: NetworkError.self) { try cut.readLine(maxLength: 64, deadline: deadline) }
        #expect(truncated?.code == .connectionClosed)
    }
}
