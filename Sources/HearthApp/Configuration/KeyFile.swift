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
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw systemError("stat", path: path)
        }
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
        guard let data = FileManager.default.contents(atPath: path) else { throw systemError("read", path: path) }
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

    /// A ``KeyError`` `.system` for the failed `call` on `path`, with the system's reason.
    static func systemError(_ call: String, path: String) -> KeyError {
        let code = errno
        return KeyError(code: .system, path: path, message: "\(call) \(path): \(String(cString: strerror(code))) (errno \(code))")
    }

    /// `mode` as `0644`.
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }
}
