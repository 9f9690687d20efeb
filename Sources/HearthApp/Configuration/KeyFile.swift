import FoundationEssentials
import Glibc
import Support

/// Reading a file that holds a key: only once it is certain nobody but the server's user can
/// read or change it (as OpenSSH and PostgreSQL refuse private key files others can read or
/// own).
enum KeyFile {
    /// The bytes of the key file at `path`, or nil when there is none.
    ///
    /// The checks are made on the open file, not on its name, so nothing can be swapped in
    /// between: it must be a regular file (opened without blocking, so a FIFO is refused rather
    /// than waited on), owned by the server's user or root (whoever owns a file can change it),
    /// with no permission for its group or others.
    /// - Parameter followingLinks: Whether a symbolic link at `path` is followed (its target
    ///   checked): true for a file the operator names (`--access-token-key-file`, which may be a
    ///   secrets mount); false in the key directory, where the server writes its files itself
    ///   and a link is not one of them.
    /// - Throws: ``KeyError`` `.unsafePermissions` for a link where none is followed, a file
    ///   that is not regular, owned by another user, or open to its group or others; `.system`
    ///   when it cannot be read.
    static func contents(at path: String, followingLinks: Bool = false) throws(KeyError) -> [UInt8]? {
        var status = stat()
        let exists = try systemCall(followingLinks ? "stat" : "lstat", path: path, tolerating: ENOENT) {
            Int(followingLinks ? stat(path, &status) : lstat(path, &status))
        }
        guard exists != nil else { return nil }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw KeyError(
                code: .unsafePermissions, path: path,
                message: "the key file \(path) is a symbolic link; the key directory holds the key files themselves")
        }
        // O_NOFOLLOW: a link put in its place since the lstat fails the open (ELOOP).
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW)
        let descriptor = Int32(try systemCall("open", path: path) { Int(open(path, flags)) })
        defer { close(descriptor) }
        try systemCall("fstat", path: path) { Int(fstat(descriptor, &status)) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw KeyError(code: .unsafePermissions, path: path, message: "the key file \(path) is not a regular file")
        }
        try checkOwner(status, of: path, what: "key file")
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw KeyError(
                code: .unsafePermissions, path: path,
                message: "the key file \(path) can be read or changed by its group or others (mode \(octal(permissions))); "
                    + "make it private to the server's user: chmod 600 \(path)")
        }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try systemCall("read", path: path) {
                buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { return contents }
            contents += buffer[..<count]
        }
    }

    /// Refuses a key file or key directory that belongs to another user than the server's (or
    /// root): its owner could change it whatever its mode says.
    /// - Throws: ``KeyError`` `.unsafePermissions` naming the owner and what to run.
    static func checkOwner(_ status: stat, of path: String, what: String) throws(KeyError) {
        let user = geteuid()
        guard status.st_uid != user, status.st_uid != 0 else { return }
        throw KeyError(
            code: .unsafePermissions, path: path,
            message: "the \(what) \(path) is owned by uid \(status.st_uid), not by the server's user (uid \(user)) or root, "
                + "who could change it; run: chown \(user) \(path)")
    }

    /// `bytes` as a key of at least `length` bytes: base64url text (surrounding whitespace
    /// ignored), or, when `rawAllowed`, the bytes themselves.
    /// - Throws: ``KeyError`` `.malformed` naming `path`.
    static func key(from bytes: [UInt8], length: Int, rawAllowed: Bool = false, path: String) throws(KeyError) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        let key = Base64URL.decode(text) ?? (rawAllowed ? Array(text.utf8) : [])
        guard key.count >= length else {
            throw KeyError(
                code: .malformed, path: path,
                message: "the key file \(path) is malformed: it must hold a key of at least \(length) bytes as base64url text"
                    + (rawAllowed ? " (or as raw bytes)" : "") + "; restore it from the backup of the key directory, "
                    + "or delete it to have a new key generated (see README, Keys and secrets)")
        }
        return key
    }

    /// Runs the system call `name` on `path` the one way key handling does: `body` returns -1
    /// and sets `errno` on failure; it is retried while interrupted (`EINTR`).
    /// - Returns: Its result, or nil when it failed with `tolerated` (such as `ENOENT`).
    /// - Throws: ``KeyError`` `.system` naming the call, the path and the system's reason.
    @discardableResult
    static func systemCall(_ name: String, path: String, tolerating tolerated: Int32?, _ body: () -> Int) throws(KeyError) -> Int? {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            if code == tolerated { return nil }
            throw KeyError(code: .system, path: path, message: "\(name) \(path): \(String(cString: strerror(code))) (errno \(code))")
        }
    }

    /// ``systemCall(_:path:tolerating:_:)`` tolerating no failure.
    @discardableResult
    static func systemCall(_ name: String, path: String, _ body: () -> Int) throws(KeyError) -> Int {
        // With nothing tolerated, every failure throws: a value is always there.
        try systemCall(name, path: path, tolerating: nil, body)!
    }

    /// `mode` as `0644`.
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }
}
