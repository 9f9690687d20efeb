import Glibc
import Synchronization

/// Where formatted log lines go.
public protocol LogSink: Sendable {
    /// Accepts one complete line. `urgent` lines (notices and worse) must reach their
    /// destination before `write` returns; others may be buffered briefly.
    func write(_ line: String, urgent: Bool)
    /// Writes out anything buffered.
    func flush()
}

/// Drops every line.
public struct DiscardingLogSink: LogSink {
    /// Creates the sink.
    public init() {}
    public func write(_ line: String, urgent: Bool) {}
    public func flush() {}
}

/// Keeps every line in memory; for tests that assert what was logged.
public final class MemoryLogSink: LogSink {
    private let storage = Mutex<[String]>([])

    /// Creates an empty sink.
    public init() {}

    /// The lines written so far, in order.
    public var lines: [String] { storage.withLock { $0 } }

    public func write(_ line: String, urgent: Bool) { storage.withLock { $0.append(line) } }
    public func flush() {}
}

/// Writes lines to a file descriptor (standard error by default), buffering
/// non-urgent lines for at most `flushInterval` so a busy server does not make one
/// system call per access-log line.
public final class FileDescriptorLogSink: LogSink {
    private struct State {
        var buffer: [UInt8] = []
        var stopped = false
    }

    private let fileDescriptor: Int32
    private let capacity: Int
    private let state = Mutex(State())

    /// Creates the sink and, when `flushInterval` is positive, a thread that flushes on that period.
    ///
    /// - Parameters:
    ///   - fileDescriptor: where lines go; the sink does not close it.
    ///   - capacity: buffered bytes that force a flush.
    ///   - flushInterval: the longest a buffered line waits; zero writes every line at once.
    public init(fileDescriptor: Int32 = 2, capacity: Int = 32 * 1024, flushInterval: Duration = .milliseconds(200)) {
        self.fileDescriptor = fileDescriptor
        self.capacity = flushInterval == .zero ? 0 : capacity
        if flushInterval > .zero {
            let interval = flushInterval
            DetachedThread.start(name: "log-flush") { [weak self] in
                while let sink = self, sink.flushAndCheckRunning() {
                    DetachedThread.sleep(for: interval)
                }
            }
        }
    }

    deinit { flush() }

    public func write(_ line: String, urgent: Bool) {
        let pending: [UInt8]? = state.withLock { state in
            state.buffer.append(contentsOf: line.utf8)
            guard urgent || state.buffer.count >= capacity else { return nil }
            defer { state.buffer.removeAll(keepingCapacity: true) }
            return state.buffer
        }
        if let pending { writeAll(pending) }
    }

    public func flush() {
        _ = flushAndCheckRunning()
    }

    /// Stops the periodic flusher after a final flush; later lines are written at once.
    public func stop() {
        state.withLock { $0.stopped = true }
        flush()
    }

    private func flushAndCheckRunning() -> Bool {
        let (pending, running) = state.withLock { state -> ([UInt8], Bool) in
            defer { state.buffer.removeAll(keepingCapacity: true) }
            return (state.buffer, !state.stopped)
        }
        if !pending.isEmpty { writeAll(pending) }
        return running
    }

    private func writeAll(_ bytes: [UInt8]) {
        StandardStreams.write(bytes, to: fileDescriptor)
    }
}
