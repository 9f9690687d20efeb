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
