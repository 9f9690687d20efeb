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
///
/// The flusher thread sleeps until a line is buffered (the first line into an empty buffer
/// signals it), then waits out the interval and writes what gathered: an idle server's
/// logger costs no wake-ups, which matters on a small home server running for years.
public final class FileDescriptorLogSink: LogSink {
    private struct State {
        var buffer: [UInt8] = []
        var stopped = false
    }

    private let fileDescriptor: Int32
    private let capacity: Int
    private let state = Mutex(State())
    /// Wakes the flusher thread; `nil` without one (a zero interval).
    private let linesBuffered: LineSignal?

    /// Creates the sink and, when `flushInterval` is positive, a thread that flushes buffered
    /// lines at most that long after the first of them.
    ///
    /// - Parameters:
    ///   - fileDescriptor: where lines go; the sink does not close it.
    ///   - capacity: buffered bytes that force a flush.
    ///   - flushInterval: the longest a buffered line waits; zero writes every line at once.
    public init(fileDescriptor: Int32 = 2, capacity: Int = 32 * 1024, flushInterval: Duration = .milliseconds(200)) {
        self.fileDescriptor = fileDescriptor
        self.capacity = flushInterval == .zero ? 0 : capacity
        guard flushInterval > .zero else {
            linesBuffered = nil
            return
        }
        let signal = LineSignal()
        linesBuffered = signal
        let interval = flushInterval
        // The thread holds the sink only while flushing, so a sink nobody uses any more is freed
        // (its deinit flushes and signals) and the thread ends when it wakes.
        DetachedThread.start(name: "log-flush") { [weak self] in
            while true {
                signal.wait()
                DetachedThread.sleep(for: interval)
                guard let sink = self, sink.flushAndCheckRunning() else { return }
            }
        }
    }

    deinit {
        flush()
        linesBuffered?.post()
    }

    // Bytes are written while the lock is held, so lines reach the descriptor in the
    // order they were logged even when the flusher thread and a logger race.
    public func write(_ line: String, urgent: Bool) {
        let first = state.withLock { state -> Bool in
            let wasEmpty = state.buffer.isEmpty
            state.buffer.append(contentsOf: line.utf8)
            guard urgent || state.stopped || state.buffer.count >= capacity else { return wasEmpty }
            writeAll(state.buffer)
            state.buffer.removeAll(keepingCapacity: true)
            return false
        }
        if first { linesBuffered?.post() }
    }

    public func flush() {
        _ = flushAndCheckRunning()
    }

    /// Stops the flusher thread after a final flush; later lines are written at once.
    public func stop() {
        state.withLock { $0.stopped = true }
        flush()
        linesBuffered?.post()
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

/// A POSIX semaphore: the flusher thread of ``FileDescriptorLogSink`` blocks on it until a line
/// is buffered. A class of its own, shared by the sink and its thread, so the thread can still
/// wait on it (and be woken) while the sink is being freed.
private final class LineSignal: @unchecked Sendable {
    // Unchecked: a semaphore is made for use from several threads; the pointer never changes.
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes the waiting thread (or the next wait).
    func post() {
        sem_post(semaphore)
    }

    /// Blocks until posted; retries after a signal interrupts the wait.
    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
