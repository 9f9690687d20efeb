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
            // The thread holds the sink only while flushing, so a sink nobody uses any more is freed
            // (its deinit flushes) and the thread ends after its next wake-up.
            DetachedThread.start(name: "log-flush") { [weak self] in
                while true {
                    DetachedThread.sleep(for: interval)
                    guard let sink = self, sink.flushAndCheckRunning() else { return }
                }
            }
        }
    }

    deinit { flush() }

    // Bytes are written while the lock is held, so lines reach the descriptor in the
    // order they were logged even when the flusher thread and a logger race.
    public func write(_ line: String, urgent: Bool) {
        state.withLock { state in
            state.buffer.append(contentsOf: line.utf8)
            guard urgent || state.buffer.count >= capacity else { return }
            writeAll(state.buffer)
            state.buffer.removeAll(keepingCapacity: true)
        }
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
        state.withLock { state in
            if !state.buffer.isEmpty {
                writeAll(state.buffer)
                state.buffer.removeAll(keepingCapacity: true)
            }
            return !state.stopped
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        StandardStreams.write(bytes, to: fileDescriptor)
    }
}
