import FoundationEssentials
import Glibc
import Support

/// Reading a file that holds a key: only once it is certain nobody but its owner can read or
/// change it (as OpenSSH and PostgreSQL refuse private key files others can read).
enum KeyFile {
    /// The bytes of the key file at `path`, or nil when there is none.
    /// - Throws: ``KeyError`` `.unsafePermissions` when the file is not a regular file or its
    ///   group or others have any permission; `.system` when it cannot be read.
    static func contents(at path: String) throws(KeyError) -> [UInt8]? {
        var status = stat()
        guard try systemCall("stat", path: path, tolerating: ENOENT, { Int(stat(path, &status)) }) != nil else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw KeyError(code: .unsafePermissions, path: path, message: "the key file \(path) is not a regular file")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw KeyError(
                code: .unsafePermissions, path: path,
                message: "the key file \(path) can be read or changed by its group or others (mode \(octal(permissions))); "
                    + "make it private to the server's user: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyError(code: .system, path: path, message: "cannot read the key file \(path)")
        }
        return Array(data)
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
