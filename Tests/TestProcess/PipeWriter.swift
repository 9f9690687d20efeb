import Glibc
import Synchronization

/// The test's end of a pipe a child reads from (its standard input).
///
/// The child sees end of file once this end is closed, by ``close()`` or on release, and no
/// other process holds it. Calls from several threads are serialised.
public final class PipeWriter: Sendable {
    private let descriptor: Mutex<Int32>
    private let executable: String

    init(descriptor: Int32, executable: String) {
        self.descriptor = Mutex(descriptor)
        self.executable = executable
    }

    deinit { close() }

    /// Writes all of `bytes`, blocking while the pipe is full (until the child reads).
    ///
    /// A child that closed its end makes this throw `EPIPE`; the `SIGPIPE` the kernel raises
    /// for it is blocked on the calling thread for the duration and consumed, so it cannot end
    /// the test process.
    /// - Throws: `ChildProcessError` (`EPIPE` when the child no longer reads; `EBADF` after ``close()``).
    public func write(_ bytes: [UInt8]) throws {
        try descriptor.withLock { descriptor in
            guard descriptor >= 0 else { throw ChildProcessError(code: EBADF, operation: "write", executable: executable) }
            try Self.withSIGPIPEBlocked {
                var written = 0
                while written < bytes.count {
                    written += try bytes.withUnsafeBytes { all in
                        try systemCall("write", of: executable) {
                            Glibc.write(descriptor, all.baseAddress! + written, all.count - written)
                        }
                    }
                }
            }
        }
    }

    /// Closes the test's end: the child reads end of file once it has read what was written.
    public func close() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // close(2) releases the descriptor even when it reports EINTR, so it is never retried.
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Runs `body` with `SIGPIPE` blocked on this thread, then discards a `SIGPIPE` that `body`
    /// raised (one that was already pending stays), then restores the thread's signal mask.
    private static func withSIGPIPEBlocked<Result>(_ body: () throws -> Result) throws -> Result {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        defer {
            sigpending(&pending)
            if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
                var immediately = timespec()
                while sigtimedwait(&pipeSignal, nil, &immediately) == -1 && errno == EINTR {}
            }
        }
        return try body()
    }
}
