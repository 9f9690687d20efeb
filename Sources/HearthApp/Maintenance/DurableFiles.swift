import FoundationEssentials
import Glibc

/// File steps that survive a crash or power cut, for `backup` and `restore`: a file is
/// flushed before it is renamed into place, and the rename is flushed with its directory, so
/// after a crash the name holds either the old file or the whole new one.
enum DurableFiles {
    /// Flushes the file or directory at `path` to disk.
    /// - Throws: ``DurableFileError`` naming the call that failed.
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFileError("open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw DurableFileError("fsync", path) }
    }

    /// Flushes `source`, renames it to `destination` (replacing it), and flushes the directory.
    /// Both must be in the same directory (one file system: the rename is atomic).
    static func move(_ source: String, to destination: String) throws {
        try sync(source)
        guard rename(source, destination) == 0 else { throw DurableFileError("rename", "\(source) to \(destination)") }
        try sync(directory(of: destination))
    }

    /// Copies `source` to the new file `destination`, created with `mode`, and flushes it.
    static func copy(_ source: String, to destination: String, mode: mode_t) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DurableFileError("open", source) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard output >= 0 else { throw DurableFileError("create", destination) }
        defer { close(output) }
        _ = fchmod(output, mode)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw DurableFileError("read", source) }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw DurableFileError("write", destination) }
                written += step
            }
        }
        guard fsync(output) == 0 else { throw DurableFileError("fsync", destination) }
    }

    /// Removes `path` if it exists.
    static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw DurableFileError("unlink", path) }
    }

    /// The size of the file at `path` in bytes; 0 when there is none.
    static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// The directory holding `path` (`.` for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// A file operation of ``DurableFiles`` failed: the call, the file and the system's reason.
struct DurableFileError: Error, CustomStringConvertible {
    /// The system call that failed.
    var call: String
    /// The file (or files) it was about.
    var path: String
    /// `errno` at the failure.
    var code: Int32

    init(_ call: String, _ path: String) {
        self.call = call
        self.path = path
        code = errno
    }

    var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
}
