import Glibc
import Synchronization

/// The test's end of a pipe a child writes to (its standard output or standard error).
///
/// Reads block until the child writes or closes its end; end of file comes once every
/// process holding the write end (the child, and any process it started that inherited it)
/// has exited or closed it. Bytes read past a line stay buffered for the next call. Calls from
/// several threads are serialised. The descriptor is closed by ``close()`` or on release.
public final class PipeReader: Sendable {
    private struct State {
        var descriptor: Int32
        var buffered: [UInt8] = []
        var reachedEnd = false
    }

    private let state: Mutex<State>
    private let executable: String

    init(descriptor: Int32, executable: String) {
        state = Mutex(State(descriptor: descriptor))
        self.executable = executable
    }

    deinit { close() }

    /// The next line, without its `\n`; the unterminated rest at end of file; nil once
    /// everything was read.
    /// - Throws: `ChildProcessError` when `read` fails.
    public func readLine() throws -> String? {
        try state.withLock { state in
            while true {
                if let newline = state.buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.buffered[..<newline], as: UTF8.self)
                    state.buffered.removeSubrange(...newline)
                    return line
                }
                if state.reachedEnd {
                    guard !state.buffered.isEmpty else { return nil }
                    defer { state.buffered.removeAll() }
                    return String(decoding: state.buffered, as: UTF8.self)
                }
                try fill(&state)
            }
        }
    }

    /// Everything not read yet, up to end of file.
    /// - Throws: `ChildProcessError` when `read` fails.
    public func readToEnd() throws -> [UInt8] {
        try state.withLock { state in
            while !state.reachedEnd { try fill(&state) }
            defer { state.buffered.removeAll() }
            return state.buffered
        }
    }

    /// Closes the test's end; a child writing afterwards gets `EPIPE` (or `SIGPIPE`).
    public func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            // close(2) releases the descriptor even when it reports EINTR, so it is never retried.
            _ = Glibc.close(state.descriptor)
            state.descriptor = -1
            state.reachedEnd = true
        }
    }

    /// Appends one `read` worth of bytes to the buffer, or notes end of file.
    private func fill(_ state: inout State) throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = try chunk.withUnsafeMutableBytes { bytes in
            try systemCall("read", of: executable) { read(state.descriptor, bytes.baseAddress, bytes.count) }
        }
        if count == 0 {
            state.reachedEnd = true
        } else {
            state.buffered.append(contentsOf: chunk[..<count])
        }
    }
}
