/// Connecting to the test cluster as an operator does: as a role that signs in with a password,
/// over TLS verified against the server's certificate. `tools/postgres/cluster` serves TLS with
/// a self-signed certificate for 127.0.0.1 (its own root) and asks the members of its
/// `password_login` role for their password (SCRAM) where it trusts every other role.
///
/// ```swift
/// try TemporaryPostgresDatabase.withPasswordRole { role, password in
///     let url = TemporaryPostgresDatabase.url(try TemporaryPostgresDatabase.maintenanceURL(), user: role,
///         parameters: ["sslmode": "verify-full", "sslrootcert": try TemporaryPostgresDatabase.serverCertificatePath()])
///     let store = try PostgresStore(configuration: .init(url: url, password: password))
/// }
/// ```
extension TemporaryPostgresDatabase {
    /// Calls `body` with a new login role of the cluster's `password_login` group and its
    /// password (letters and digits), then drops the role. The role owns nothing: create what it
    /// needs (``createEmptyDatabase(ownedBy:)``) and drop that first.
    public static func withPasswordRole<T>(_ body: (_ role: String, _ password: String) throws -> T) throws -> T {
        let maintenance = try maintenanceURL()
        let role = "hearth_role_" + randomName()
        let password = randomName() + randomName()
        try withConnection(to: maintenance) {
            try $0.executeScript("CREATE ROLE \(role) LOGIN PASSWORD '\(password)' IN ROLE password_login")
        }
        defer { try? withConnection(to: maintenance) { try $0.executeScript("DROP ROLE IF EXISTS \(role)") } }
        return try body(role, password)
    }

    /// Creates an empty database owned by `role` (which may then migrate it without superuser
    /// rights) and returns its URL as the cluster's superuser; ``dropDatabase(_:)`` removes it.
    public static func createEmptyDatabase(ownedBy role: String) throws -> String {
        let maintenance = try maintenanceURL()
        let name = "hearth_test_" + randomName()
        try withConnection(to: maintenance) { try $0.executeScript("CREATE DATABASE \(name) OWNER \(role)") }
        return replacingDatabase(of: maintenance, with: name)
    }

    /// The file of the certificate the cluster serves TLS with, which is also its root: what
    /// `sslrootcert` names for `sslmode=verify-full`.
    public static func serverCertificatePath() throws -> String {
        let store = try PostgresStore(configuration: .init(url: try maintenanceURL(), maxConnections: 1))
        defer { store.close() }
        return try store.read { try $0.scalar(String.self, "SELECT current_setting('ssl_cert_file')") } ?? ""
    }

    /// `url` (`postgres://user@host:port/database?parameters`) signing in as `user` (when given)
    /// with `parameters` added to its query, in the order of their names.
    public static func url(_ url: String, user: String? = nil, parameters: [String: String] = [:]) -> String {
        var result = url
        if let user, let scheme = result.firstRange(of: "://"), let at = result[scheme.upperBound...].firstIndex(of: "@") {
            result.replaceSubrange(scheme.upperBound..<at, with: user)
        }
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            result += (result.contains("?") ? "&" : "?") + name + "=" + value
        }
        return result
    }

    /// A name part no other test run picks: base 36 of a random 64-bit number.
    private static func randomName() -> String {
        String(UInt64.random(in: 0 ... .max), radix: 36)
    }
}
