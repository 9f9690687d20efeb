import Glibc
import Support
import Testing

@Suite struct LoggerTests {
    @Test func writesOneLogfmtLineWithSortedMetadata() {
        let sink = MemoryLogSink()
        let logger = Logger(label: "http", level: .info, sink: sink).with("request.id", "r1")
        logger.info("request done", ["http.status": "200"])
        #expect(sink.lines.count == 1)
        let line = sink.lines[0]
        #expect(line.hasPrefix("ts="))
        #expect(line.hasSuffix(" level=info logger=http msg=\"request done\" http.status=200 request.id=r1\n"))
    }

    @Test func dropsEntriesBelowItsLevelWithoutFormattingThem() {
        let sink = MemoryLogSink()
        let logger = Logger(label: "x", level: .warning, sink: sink)
        var formatted = false
        func message() -> String {
            formatted = true
            return "m"
        }
        logger.info(message())
        #expect(sink.lines.isEmpty)
        #expect(!formatted)
        logger.error("bad")
        #expect(sink.lines.count == 1)
    }

    @Test func escapesValuesSoAnEntryStaysOneLine() {
        let sink = MemoryLogSink()
        Logger(label: "x", sink: sink).info("two\nlines \"quoted\" a=b \u{1}", ["path": "/a b\\c"])
        let line = sink.lines[0]
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(line.contains(#"msg="two\nlines \"quoted\" a=b \u0001""#))
        #expect(line.contains(#"path="/a b\\c""#))
    }

    @Test func quotesEmptyValues() {
        let sink = MemoryLogSink()
        Logger(label: "x", sink: sink).info("", ["k": ""])
        #expect(sink.lines[0].contains(#"msg="" k="""#))
    }

    @Test func parsesLevelNames() {
        #expect(LogLevel(name: "WARN") == .warning)
        #expect(LogLevel(name: "debug") == .debug)
        #expect(LogLevel(name: "loud") == nil)
        for level in LogLevel.allCases { #expect(LogLevel(name: level.description) == level) }
    }

    @Test func fileDescriptorSinkWritesUrgentLinesAtOnceAndBuffersOthersUntilFlush() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let sink = FileDescriptorLogSink(fileDescriptor: fds[1], flushInterval: .seconds(3600))
        sink.write("buffered\n", urgent: false)
        #expect(readAvailable(fds[0]) == "")
        sink.write("urgent\n", urgent: true)
        #expect(readAvailable(fds[0]) == "buffered\nurgent\n")
        sink.write("later\n", urgent: false)
        sink.stop()
        #expect(readAvailable(fds[0]) == "later\n")
    }

    /// The flusher thread sleeps until a line is buffered, then writes it within the interval: a
    /// blocking read receives the line though nothing calls `flush`, and a second line, buffered after
    /// the thread went back to waiting, wakes it again.
    @Test func fileDescriptorSinksFlusherWritesBufferedLinesByItselfEachTimeLinesArrive() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let sink = FileDescriptorLogSink(fileDescriptor: fds[1], flushInterval: .milliseconds(1))
        sink.write("first\n", urgent: false)
        #expect(readBlocking(fds[0]) == "first\n")
        sink.write("second\n", urgent: false)
        #expect(readBlocking(fds[0]) == "second\n")
        sink.stop()
        sink.write("after stop\n", urgent: false)
        #expect(readBlocking(fds[0]) == "after stop\n", "once stopped, lines are written at once")
    }

    private func readBlocking(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    private func readAvailable(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }
}
