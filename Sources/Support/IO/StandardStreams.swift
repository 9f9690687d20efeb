import Glibc

/// Unbuffered writes to standard output and standard error, without Foundation's
/// `FileHandle`: a line written here is on its way before the call returns (scripts
/// wait for `listening on …`; error messages must not sit in a buffer at exit).
public enum StandardStreams {
    /// Reads standard input to its end.
    public static func readInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }

    /// Writes `text` to standard output.
    public static func writeOutput(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }

    /// Writes `text` to standard error.
    public static func writeError(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// Writes all of `bytes` to `fileDescriptor`, retrying interrupted and partial writes.
    /// Returns false when the descriptor fails (there is nowhere left to report that).
    @discardableResult
    public static func write(_ bytes: [UInt8], to fileDescriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
