import Foundation
import Glibc
import HearthStore
import Support
import Testing

/// The keys that sign (access tokens, analytics references, emailed links) live in a key
/// directory beside the database, never in it: created private on first start, moved out of
/// the database on upgrade, refused when others could read them.
@Suite struct KeyDirectoryTests {
    /// The key files and the `server_metadata` names older versions kept two of them under.
    static let keyFiles = ["access-token.key", "analytics.key", "link.key", "vapid.key", "secrets.key", "widget.key"]
    static let storedNames = ["access-token.key": "access_token_key", "analytics.key": "analytics_key"]

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// The key in `file` of `directory`: base64url text.
    static func key(_ file: String, in directory: URL) throws -> [UInt8] {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        return try #require(Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(file) holds \(text)")
    }

    /// Every `server_metadata` key name of the server's database.
    static func metadataNames(_ server: ServerProcess) throws -> [String] {
        try server.databaseColumn("SELECT key FROM server_metadata")
    }

    /// Expects that no file of the database holds any of `keys`, as bytes or as base64url text.
    /// SQLite's files only: PostgreSQL's are the cluster's (``metadataNames(_:)`` covers the rows there).
    static func expectNoKeyBytes(_ keys: [String: [UInt8]], in server: ServerProcess) throws {
        guard TestDatabaseStore.isSQLite else { return }
        for (file, key) in keys {
            #expect(try server.databaseFilesContaining(key).isEmpty, "the bytes of \(file)")
            #expect(try server.databaseFilesContaining(Array(Base64URL.encode(key).utf8)).isEmpty, "the text of \(file)")
        }
    }

    @Test func aFreshStartCreatesPrivateKeyFilesBesideTheDatabaseAndNoneInIt() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        let keys = server.directory.appendingPathComponent("keys")
        #expect(try Self.mode(keys.path) == 0o700)
        var stored: [String: [UInt8]] = [:]
        for file in Self.keyFiles {
            #expect(try Self.mode(keys.appendingPathComponent(file).path) == 0o600, "\(file)")
            stored[file] = try Self.key(file, in: keys)
            #expect(stored[file]?.count == 32, "\(file)")
        }
        #expect(Set(stored.values).count == Self.keyFiles.count, "different keys")
        try AccountsTests.register(server)
        #expect(try Self.metadataNames(server).isEmpty)
        try Self.expectNoKeyBytes(stored, in: server)
        #expect(server.stop() == 0)
        try Self.expectNoKeyBytes(stored, in: server)

        let restarted = try ServerProcess(directory: server.directory, arguments: AccountsTests.serverArguments)
        defer { restarted.stop(signal: SIGKILL) }
        for file in Self.keyFiles { #expect(try Self.key(file, in: keys) == stored[file], "\(file) is kept across restarts") }
        #expect(try AccountsTests.signIn(restarted).data?["login"] != nil)
    }

    /// A database of an older version kept the access-token and analytics keys in
    /// `server_metadata`: the first start of this version writes them to the key directory and
    /// deletes them from the database, and sessions signed before go on working.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "only SQLite databases of earlier versions kept keys in server_metadata"))
    func anUpgradeMovesStoredKeysOutOfTheDatabaseAndEarlierTokensStillVerify() throws {
        let old = try ServerProcess(AccountsTests.serverArguments)
        defer { old.remove() }
        let tokens = try AccountsTests.register(old)
        #expect(old.stop() == 0)
        // The older layout: the same keys as base64url text in server_metadata, no key directory.
        let keys = old.directory.appendingPathComponent("keys")
        var moved: [String: [UInt8]] = [:]
        for (file, name) in Self.storedNames {
            let key = try Self.key(file, in: keys)
            moved[file] = key
            try old.databaseWrite(
                "INSERT INTO server_metadata (key, value, updated_at) VALUES ('\(name)', '\(Base64URL.encode(key))', '2026-12-01T00:00:00.000Z')")
        }
        try FileManager.default.removeItem(at: keys)

        let upgraded = try ServerProcess(directory: old.directory, arguments: AccountsTests.serverArguments)
        defer { upgraded.stop(signal: SIGKILL) }
        #expect(try upgraded.graphQL(AccountsTests.me, token: tokens.access).data?["me"]?["username"] == "ana", "signed before the upgrade")
        #expect(try AccountEmailFlowTests.refresh(upgraded, tokens.refresh).data?["refreshSession"] != nil)
        for (file, key) in moved {
            #expect(try Self.key(file, in: keys) == key, "\(file) holds the key the database held")
            #expect(try Self.mode(keys.appendingPathComponent(file).path) == 0o600)
        }
        #expect(try Self.metadataNames(upgraded).isEmpty)
        try Self.expectNoKeyBytes(moved, in: upgraded)
        #expect(upgraded.stop() == 0)
        try Self.expectNoKeyBytes(moved, in: upgraded)
    }

    /// A start that wrote the key file and stopped before deleting the row finds both on the
    /// next start: equal, the row goes; different, the server refuses to choose.
    @Test(.enabled(if: TestDatabaseStore.isSQLite, "only SQLite databases of earlier versions kept keys in server_metadata"))
    func aKeyBothInTheDatabaseAndTheDirectoryIsDeletedFromTheDatabaseOnlyWhenTheyAgree() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        #expect(server.stop() == 0)
        let keys = server.directory.appendingPathComponent("keys")
        let key = try Self.key("analytics.key", in: keys)
        try server.databaseWrite(
            "INSERT INTO server_metadata (key, value, updated_at) VALUES ('analytics_key', '\(Base64URL.encode(key))', '2026-12-01T00:00:00.000Z')")
        let resumed = try ServerProcess(directory: server.directory, arguments: AccountsTests.serverArguments)
        #expect(try Self.metadataNames(resumed).isEmpty)
        #expect(resumed.stop() == 0)

        let other = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) })
        try server.databaseWrite(
            "INSERT INTO server_metadata (key, value, updated_at) VALUES ('analytics_key', '\(other)', '2026-12-01T00:00:00.000Z')")
        let refusal = try Self.refusal(in: server.directory)
        #expect(refusal.contains("analytics_key") && refusal.contains(keys.appendingPathComponent("analytics.key").path), "\(refusal)")
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        #expect(server.stop() == 0)
        let file = server.directory.appendingPathComponent("keys/link.key").path
        #expect(chmod(file, 0o644) == 0)
        let refusal = try Self.refusal(in: server.directory)
        #expect(refusal.contains(file) && refusal.contains("chmod 600"), "\(refusal)")
        #expect(chmod(file, 0o640) == 0)
        #expect(try Self.refusal(in: server.directory).contains(file), "readable by the group")
        #expect(chmod(file, 0o400) == 0)
        let readOnly = try ServerProcess(directory: server.directory, arguments: AccountsTests.serverArguments)
        #expect(readOnly.stop() == 0, "owner-only permissions are enough")
    }

    @Test func anAccessTokenKeyFileOthersCanReadIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("signing.key").path
        #expect(FileManager.default.createFile(
            atPath: file, contents: Data(Base64URL.encode([UInt8](repeating: 7, count: 32)).utf8), attributes: [.posixPermissions: 0o644]))
        let refusal = try Self.refusal(in: directory, arguments: ["--access-token-key-file", file])
        #expect(refusal.contains(file) && refusal.contains("chmod 600"), "\(refusal)")
    }

    @Test func aMalformedKeyFileIsRefused() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        #expect(server.stop() == 0)
        let file = server.directory.appendingPathComponent("keys/access-token.key").path
        for contents in ["not base64url!\n", Base64URL.encode([UInt8](repeating: 1, count: 16)) + "\n", ""] {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
            #expect(chmod(file, 0o600) == 0)
            let refusal = try Self.refusal(in: server.directory)
            #expect(refusal.contains(file) && refusal.contains("32 bytes"), "\(contents): \(refusal)")
        }
    }

    @Test func aVAPIDKeyThatIsNoP256PrivateKeyIsRefused() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        let published = try server.graphQL("{ pushConfiguration { vapidPublicKey } }").data?["pushConfiguration"]?["vapidPublicKey"]
        #expect(server.stop() == 0)
        let restarted = try ServerProcess(directory: server.directory, arguments: AccountsTests.serverArguments)
        #expect(try restarted.graphQL("{ pushConfiguration { vapidPublicKey } }").data?["pushConfiguration"]?["vapidPublicKey"] == published,
                "the published key survives a restart")
        #expect(restarted.stop() == 0)
        let file = server.directory.appendingPathComponent("keys/vapid.key").path
        // 32 bytes, but above the order of P-256's group.
        try Data((Base64URL.encode([UInt8](repeating: 0xFF, count: 32)) + "\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(chmod(file, 0o600) == 0)
        let refusal = try Self.refusal(in: server.directory)
        #expect(refusal.contains(file) && refusal.contains("not a P-256 private key"), "\(refusal)")
    }

    @Test func theKeyDirectoryCanBeChosen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chosen = directory.appendingPathComponent("secrets/hearth")
        let server = try ServerProcess(AccountsTests.serverArguments, environment: ["HEARTH_KEY_DIRECTORY": chosen.path])
        defer { server.remove() }
        #expect(try Self.mode(chosen.path) == 0o700)
        for file in Self.keyFiles { #expect(try Self.key(file, in: chosen).count == 32, "\(file)") }
        #expect(!FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("keys").path))
    }

    /// Rotating the access-token key (README, Keys and secrets): deleting `access-token.key`
    /// makes the next start generate another, access tokens signed before stop verifying, and
    /// refresh tokens, which the key does not sign, keep their sessions going.
    @Test func aDeletedAccessTokenKeyIsReplacedAndRefreshTokensOutliveIt() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        let tokens = try AccountsTests.register(server)
        #expect(server.stop() == 0)
        let file = server.directory.appendingPathComponent("keys/access-token.key")
        let before = try Self.key("access-token.key", in: server.directory.appendingPathComponent("keys"))
        try FileManager.default.removeItem(at: file)

        let restarted = try ServerProcess(directory: server.directory, arguments: AccountsTests.serverArguments)
        defer { restarted.stop(signal: SIGKILL) }
        #expect(try Self.key("access-token.key", in: server.directory.appendingPathComponent("keys")) != before)
        #expect(try restarted.graphQL(AccountsTests.me, token: tokens.access).errorReason == "TOKEN_INVALID")
        let refreshed = try AccountsTests.tokens(try restarted.graphQL(
            AccountsTests.refresh, variables: ["input": .object(["refreshToken": .string(tokens.refresh)])]).data?["refreshSession"])
        #expect(refreshed.sessionID == tokens.sessionID)
        #expect(try restarted.graphQL(AccountsTests.me, token: refreshed.access).data?["me"]?["username"] == "ana")
    }

    /// What `hearth serve` says when it refuses to start on the database in `directory`.
    static func refusal(in directory: URL, arguments: [String] = []) throws -> String {
        do {
            let server = try ServerProcess(directory: directory, arguments: AccountsTests.serverArguments + arguments)
            server.stop(signal: SIGKILL)
            Issue.record("the server started")
            return ""
        } catch let failure as ServerProcess.Failure {
            return failure.description
        }
    }
}
