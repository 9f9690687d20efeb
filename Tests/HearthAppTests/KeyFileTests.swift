import Foundation
import Glibc
@testable import HearthApp
import Support
import Synchronization
import Testing

/// The key directory on the file system: private files, generated once, atomically, and
/// refused when others could read or change them.
@Suite struct KeyFileTests {
    /// Calls `body` with the path of a key directory that does not exist yet, then removes it.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try body(parent + "/data/keys")
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aKeyIsGeneratedOnceIntoAPrivateFileAndReadBackAfterwards() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            #expect(try mode(path) == 0o700)
            let (key, isNew) = try directory.key("link.key", length: 32)
            #expect(isNew && key.count == 32)
            #expect(try mode(directory.file("link.key")) == 0o600)
            let text = try String(contentsOfFile: directory.file("link.key"), encoding: .utf8)
            #expect(text == Base64URL.encode(key) + "\n")
            let again = try directory.key("link.key", length: 32)
            #expect(again.key == key && !again.isNew)
            #expect(try directory.keep(SecureRandom.bytes(32), as: "link.key", length: 32) == key, "an existing key is never replaced")
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["link.key"], "no temporary file is left")
        }
    }

    /// Two servers starting together on one data directory: every start gets the same key.
    @Test func startsRacingToGenerateAKeyAllGetTheOneLinkedFirst() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            let keys = Mutex<[[UInt8]]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                if let (key, _) = try? directory.key("access-token.key", length: 32) { keys.withLock { $0.append(key) } }
            }
            let all = keys.withLock { $0 }
            #expect(all.count == 16 && Set(all).count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["access-token.key"])
        }
    }

    @Test func keyFilesOthersMayReadAndDirectoriesOthersMayChangeAreRefused() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            _ = try directory.key("analytics.key", length: 32)
            for permissions: mode_t in [0o644, 0o640, 0o604, 0o660, 0o601] {
                #expect(chmod(directory.file("analytics.key"), permissions) == 0)
                let error = #expect(throws: KeyError.self) { try directory.key("analytics.key", length: 32) }
                #expect(error?.code == .unsafePermissions && error?.description.contains("chmod 600") == true, "\(permissions)")
            }
            #expect(chmod(directory.file("analytics.key"), 0o400) == 0)
            #expect(try directory.key("analytics.key", length: 32).key.count == 32, "owner-only is enough")
            #expect(chmod(path, 0o770) == 0)
            #expect(throws: KeyError.self) { try directory.prepare() }
            #expect(chmod(path, 0o750) == 0)
            try directory.prepare()
        }
    }

    /// A key file the server did not write itself is not read through a link: a symbolic
    /// link in the key directory is refused, even to a private file of the server's user.
    @Test func aSymbolicLinkInTheKeyDirectoryIsRefused() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            let elsewhere = path + "/../elsewhere.key"
            #expect(FileManager.default.createFile(
                atPath: elsewhere, contents: Data(Base64URL.encode(SecureRandom.bytes(32)).utf8), attributes: [.posixPermissions: 0o600]))
            #expect(symlink(elsewhere, directory.file("link.key")) == 0)
            let error = #expect(throws: KeyError.self) { try directory.key("link.key", length: 32) }
            #expect(error?.code == .unsafePermissions && error?.description.contains("symbolic link") == true, "\(String(describing: error))")
        }
    }

    /// Something that is not a regular file (a FIFO would block a plain read forever) is refused at once.
    @Test func aKeyThatIsNoRegularFileIsRefusedWithoutBlocking() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            #expect(mkfifo(directory.file("link.key"), 0o600) == 0)
            let error = #expect(throws: KeyError.self) { try directory.key("link.key", length: 32) }
            #expect(error?.code == .unsafePermissions, "\(String(describing: error))")
        }
    }

    /// A private file, or directory, of another user is that user's to change: whoever owns the
    /// file could swap the key (as OpenSSH and PostgreSQL refuse such key files). Root may own
    /// them; changing owners needs root, so the test runs as root only.
    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"))
    func aKeyFileOrKeyDirectoryOwnedByAnotherUserIsRefused() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            _ = try directory.key("analytics.key", length: 32)
            let nobody: uid_t = 65534
            #expect(chown(directory.file("analytics.key"), nobody, gid_t(nobody)) == 0)
            let error = #expect(throws: KeyError.self) { try directory.key("analytics.key", length: 32) }
            #expect(error?.code == .unsafePermissions && error?.description.contains("owned by") == true, "\(String(describing: error))")
            #expect(chown(directory.file("analytics.key"), 0, 0) == 0)
            #expect(try directory.key("analytics.key", length: 32).key.count == 32, "root may own it")
            #expect(chown(path, nobody, gid_t(nobody)) == 0)
            let directoryError = #expect(throws: KeyError.self) { try directory.prepare() }
            #expect(directoryError?.code == .unsafePermissions && directoryError?.description.contains("owned by") == true)
        }
    }

    /// `--access-token-key-file` may be a link (a secrets mount), but its target gets every check.
    @Test func anAccessTokenKeyFileIsReadThroughALinkWithItsTargetChecked() throws {
        try withDirectory { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let target = path + "/target.key"
            let key = SecureRandom.bytes(32)
            #expect(FileManager.default.createFile(atPath: target, contents: Data(Base64URL.encode(key).utf8), attributes: [.posixPermissions: 0o600]))
            #expect(symlink(target, path + "/link.key") == 0)
            let bytes = try #require(try KeyFile.contents(at: path + "/link.key", followingLinks: true))
            #expect(try KeyFile.key(from: bytes, length: 32, path: path + "/link.key") == key)
            #expect(chmod(target, 0o644) == 0)
            let error = #expect(throws: KeyError.self) { try KeyFile.contents(at: path + "/link.key", followingLinks: true) }
            #expect(error?.code == .unsafePermissions)
        }
    }

    @Test func aMalformedOrShortKeyIsRefusedAndLongerKeysAreRead() throws {
        try withDirectory { path in
            let directory = KeyDirectory(path: path)
            try directory.prepare()
            for contents in ["", "not base64url!", Base64URL.encode([UInt8](repeating: 1, count: 31)), "AAAA=\n"] {
                #expect(FileManager.default.createFile(
                    atPath: directory.file("link.key"), contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]))
                let error = #expect(throws: KeyError.self) { try directory.key("link.key", length: 32) }
                #expect(error?.code == .malformed, "\(contents)")
            }
            let long = [UInt8](repeating: 9, count: 64)
            #expect(FileManager.default.createFile(
                atPath: directory.file("link.key"), contents: Data((" " + Base64URL.encode(long) + "\r\n").utf8),
                attributes: [.posixPermissions: 0o600]))
            #expect(try directory.key("link.key", length: 32).key == long)
        }
    }
}
