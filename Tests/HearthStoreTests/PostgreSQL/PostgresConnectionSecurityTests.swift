import Foundation
import HearthStore
import Testing

/// The store connects as an operator's deployment does: over TLS verified against the server's
/// certificate (`sslmode=verify-full`, libpq's parameters passing through the URL), and as a
/// role signing in with a password given apart from the URL (`--database-password-file`).
/// Errors say what failed and never show the password.
@Suite struct PostgresConnectionSecurityTests {
    @Test func verifyFullConnectsOverTLSRefusesACertificateItsRootDidNotSignAndDisableStaysPlain() throws {
        try TemporaryPostgresDatabase.withURL { url in
            let verifyFull = TemporaryPostgresDatabase.url(
                url, parameters: ["sslmode": "verify-full", "sslrootcert": try TemporaryPostgresDatabase.serverCertificatePath()])
            #expect(try Self.isEncrypted(verifyFull))
            #expect(try !Self.isEncrypted(TemporaryPostgresDatabase.url(url, parameters: ["sslmode": "disable"])))

            let stranger = try Self.strangerCertificate()
            defer { try? FileManager.default.removeItem(atPath: stranger.deletingLastPathComponent().path) }
            let error = #expect(throws: StoreError.self) {
                _ = try PostgresStore(configuration: .init(
                    url: TemporaryPostgresDatabase.url(url, parameters: ["sslmode": "verify-full", "sslrootcert": stranger.path]),
                    maxConnections: 1))
            }
            #expect(error?.code == .cantOpen)
            #expect(error.map { "\($0)" }?.contains("certificate verify failed") == true, "\(String(describing: error))")
        }
    }

    @Test func aRoleSignsInWithThePasswordGivenApartAndAWrongOneIsRefusedWithoutShowingIt() throws {
        try TemporaryPostgresDatabase.withURL { url in
            try TemporaryPostgresDatabase.withPasswordRole { role, password in
                // The password given apart wins over one in the URL.
                let withStalePassword = TemporaryPostgresDatabase.url(url, user: role + ":stale")
                let store = try PostgresStore(configuration: .init(url: withStalePassword, password: password, maxConnections: 1))
                #expect(try store.read { try $0.scalar(String.self, "SELECT current_user") } == role)
                store.close()

                let wrong = "wrong" + password
                let error = #expect(throws: StoreError.self) {
                    _ = try PostgresStore(configuration: .init(
                        url: TemporaryPostgresDatabase.url(url, user: role), password: wrong, maxConnections: 1))
                }
                #expect(error?.code == .cantOpen)
                let message = error.map { "\($0)" } ?? ""
                #expect(message.contains("password authentication failed for user \"\(role)\""), "\(message)")
                #expect(!message.contains(wrong))
            }
        }
    }

    /// Whether a connection to `url` is encrypted, as the server sees it.
    private static func isEncrypted(_ url: String) throws -> Bool {
        let store = try PostgresStore(configuration: .init(url: url, maxConnections: 1))
        defer { store.close() }
        return try store.read { try $0.scalar(Bool.self, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") } ?? false
    }

    /// A self-signed certificate for 127.0.0.1 that is not the cluster's, in a directory of its own.
    private static func strangerCertificate() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stranger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("root.crt")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=stranger", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", directory.appendingPathComponent("root.key").path, "-out", certificate.path,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0, "openssl req")
        return certificate
    }
}
