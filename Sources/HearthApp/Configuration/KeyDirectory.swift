import FoundationEssentials
import Glibc
import Support

/// The directory of the server's keys (`keys/` beside the database by default): one file per
/// key, base64url text, private to the server's user. The database never holds a key, so a
/// copy of it (or of its backups) can neither forge a session nor follow an emailed link.
///
/// The directory is created `0700` and its files `0600`. A key missing on start is generated
/// from the system's CSPRNG and written atomically (a temporary file, `fsync`, then a hard
/// link to its name, which fails when the name exists): two servers starting together on one
/// data directory end up with the one key that was linked first, never with two.
struct KeyDirectory: Sendable {
    /// Where the keys are.
    let path: String

    /// The path of the key file `name`.
    func file(_ name: String) -> String { path + "/" + name }

    /// Creates the directory (`0700`, parents as needed) when it does not exist.
    /// - Throws: ``KeyError`` `.unsafePermissions` when it exists and others may change its
    ///   files (group- or world-writable, or owned by another user than the server's or root);
    ///   `.system` when it cannot be created.
    func prepare() throws(KeyError) {
        var status = stat()
        if try KeyFile.systemCall("stat", path: path, tolerating: ENOENT, { Int(stat(path, &status)) }) == nil {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                do {
                    try FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
                } catch {
                    throw KeyError(code: .system, path: path, message: "cannot create the parent of the key directory \(path): \(error)")
                }
            }
            try KeyFile.systemCall("mkdir", path: path, tolerating: EEXIST) { Int(mkdir(path, 0o700)) }
            try KeyFile.systemCall("stat", path: path) { Int(stat(path, &status)) }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw KeyError(code: .system, path: path, message: "the key directory \(path) is not a directory")
        }
        try KeyFile.checkOwner(status, of: path, what: "key directory")
        guard status.st_mode & 0o022 == 0 else {
            throw KeyError(
                code: .unsafePermissions, path: path,
                message: "the key directory \(path) can be changed by its group or others (mode \(KeyFile.octal(status.st_mode & 0o777))); "
                    + "run: chmod 700 \(path)")
        }
    }

    /// The key in file `name`; when there is none, `length` new random bytes written there.
    /// - Throws: ``KeyError`` for a file others could read, a malformed file, or a failed write.
    func key(_ name: String, length: Int) throws(KeyError) -> (key: [UInt8], isNew: Bool) {
        if let existing = try read(name, length: length) { return (existing, false) }
        let generated = SecureRandom.bytes(length)
        let kept = try keep(generated, as: name, length: length)
        return (kept, kept == generated)
    }

    /// Writes `key` to file `name` unless that file exists; returns the key the file holds
    /// afterwards: `key`, or the one found there.
    func keep(_ key: [UInt8], as name: String, length: Int) throws(KeyError) -> [UInt8] {
        if let existing = try read(name, length: length) { return existing }
        let target = file(name)
        let temporary = file(".\(name).\(Base64URL.encode(SecureRandom.bytes(9))).tmp")
        try write(Array((Base64URL.encode(key) + "\n").utf8), toNew: temporary)
        defer { unlink(temporary) }
        guard try KeyFile.systemCall("link", path: target, tolerating: EEXIST, { Int(link(temporary, target)) }) != nil else {
            // Another process linked its key first: that one is the key.
            guard let existing = try read(name, length: length) else {
                throw KeyError(code: .system, path: target, message: "the key file \(target) vanished while it was being created")
            }
            return existing
        }
        try syncDirectory()
        return key
    }

    /// The key in file `name`, or nil when there is no such file.
    private func read(_ name: String, length: Int) throws(KeyError) -> [UInt8]? {
        let path = file(name)
        return try KeyFile.contents(at: path).map { (bytes) throws(KeyError) in try KeyFile.key(from: bytes, length: length, path: path) }
    }

    /// Creates `path` (`0600`, failing when it exists), writes `bytes` and flushes them to disk.
    private func write(_ bytes: [UInt8], toNew path: String) throws(KeyError) {
        let descriptor = Int32(try KeyFile.systemCall("open", path: path) { Int(open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)) })
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            written += try KeyFile.systemCall("write", path: path) {
                bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
        }
        try KeyFile.systemCall("fsync", path: path) { Int(fsync(descriptor)) }
    }

    /// Flushes the directory, so a new file's name survives a power loss.
    private func syncDirectory() throws(KeyError) {
        let descriptor = Int32(try KeyFile.systemCall("open", path: path) { Int(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) })
        defer { close(descriptor) }
        try KeyFile.systemCall("fsync", path: path) { Int(fsync(descriptor)) }
    }
}
