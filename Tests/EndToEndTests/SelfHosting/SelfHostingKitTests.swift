import Foundation
import HearthStore
import Testing

/// The self-hosting kit (FR-67): the environment variables of `hearth serve`, and the files a
/// self-hoster runs it with (`Dockerfile`, `compose.yaml`, `tools/hearth.service`) checked
/// against the binary. No Docker engine runs here, so the image is not built: these tests hold
/// the files to what the binary knows instead.
@Suite struct SelfHostingKitTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every `HEARTH_…` name in `text`.
    static func variables(in text: String) -> Set<String> {
        Set(text.matches(of: /HEARTH_[A-Z0-9_]+/).map { String($0.output) })
    }

    /// The variables `hearth COMMAND --help` documents ("Environment: HEARTH_….").
    static func documentedVariables(_ command: String) throws -> Set<String> {
        let help = try HearthCommand.run([command, "--help"])
        #expect(help.status == 0, "\(help.standardError)")
        return Set(help.standardOutput.matches(of: /Environment:\s+(HEARTH_[A-Z0-9_]+)\./).map { String($0.output.1) })
    }

    /// `Key=value` lines of a systemd unit, in order (comments skipped).
    static func unitEntries(_ text: String) -> [(key: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    @Test func FR67_environmentVariablesSetOptionsAndAFlagBeatsItsVariable() throws {
        let fromEnvironment = try ServerProcess(environment: ["HEARTH_REGISTRATION": "closed", "HEARTH_TERMS_VERSION": "2027-02-02"])
        defer { fromEnvironment.remove() }
        let document = try fromEnvironment.discoveryDocument()
        #expect(document["features"]?["registration"] == "CLOSED" && document["terms"]?["version"] == "2027-02-02", "\(document)")

        let flagWins = try ServerProcess(["--registration", "invite-only"], environment: ["HEARTH_REGISTRATION": "closed"])
        defer { flagWins.remove() }
        #expect(try flagWins.discoveryDocument()["features"]?["registration"] == "INVITE_ONLY")

        let database = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-env-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: database) }
        let refused = try HearthCommand.run(
            ["serve", "--port", "0", "--database", database + "/hearth.sqlite"], environment: ["HEARTH_REGISTRATION": "sometimes"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("invalid value 'sometimes' for HEARTH_REGISTRATION: expected one of closed, invite-only, open"),
                "\(refused.standardError)")
    }

    @Test func FR67_everyVariableOfTheComposeFileImageAndUnitIsOneHearthKnows() throws {
        let known = try Self.documentedVariables("serve").union(try Self.documentedVariables("healthcheck"))
        #expect(known.contains("HEARTH_REGISTRATION") && known.contains("HEARTH_PUBLIC_BASE_URL") && known.count > 100)
        for path in ["compose.yaml", "Dockerfile", "tools/hearth.service"] {
            let used = Self.variables(in: try Self.file(path))
            #expect(!used.isEmpty, "\(path) sets no variable")
            #expect(used.subtracting(known).isEmpty, "\(path) names variables hearth does not know: \(used.subtracting(known).sorted())")
        }
    }

    @Test func FR67_theImageKeepsItsStateInTheVolumeAndChecksReadiness() throws {
        let dockerfile = try Self.file("Dockerfile")
        let compose = try Self.file("compose.yaml")
        let volume = try #require(dockerfile.firstMatch(of: /\nVOLUME \["([^"]+)"\]/)?.output.1, "no VOLUME")
        let database = try #require(dockerfile.firstMatch(of: /HEARTH_DATABASE=(\S+)/)?.output.1)
        #expect(database.hasPrefix(volume + "/"), "the database \(database) is outside the volume \(volume)")
        #expect(compose.contains("- hearth-data:\(volume)\n"), "compose.yaml mounts no volume on \(volume)")
        #expect(dockerfile.contains("HEALTHCHECK") && dockerfile.contains(#"CMD ["hearth", "healthcheck"]"#))
        // Exec form: hearth itself is PID 1 and gets SIGTERM.
        #expect(dockerfile.contains(#"ENTRYPOINT ["hearth"]"#) && dockerfile.contains(#"CMD ["serve"]"#))
        #expect(dockerfile.contains("USER hearth"))

        // The health check asks /readyz of the server the same environment configures.
        let server = try ServerProcess()
        defer { server.remove() }
        // The key directory's default is `keys` beside the database file: in the volume too.
        if TestDatabaseStore.isSQLite {
            #expect(FileManager.default.fileExists(atPath: server.directory.appendingPathComponent("keys/link.key").path))
        }
        let healthy = try HearthCommand.run(["healthcheck"], environment: ["HEARTH_HOST": "0.0.0.0", "HEARTH_PORT": String(server.port)])
        #expect(healthy.status == 0, "\(healthy.standardOutput)\(healthy.standardError)")
        #expect(healthy.standardOutput.contains("http://127.0.0.1:\(server.port)/readyz: 200 ready"), "\(healthy.standardOutput)")
        #expect(server.stop() == 0)
        let down = try HearthCommand.run(["healthcheck", "--port", String(server.port), "--timeout", "2s"])
        #expect(down.status == 1, "\(down.standardOutput)")
    }

    @Test func FR67_theSystemdUnitsCommandAndEnvironmentStartTheServer() throws {
        let unit = Self.unitEntries(try Self.file("tools/hearth.service"))
        func value(_ key: String) -> String? { unit.last { $0.key == key }?.value }
        let command = try #require(value("ExecStart")).split(separator: " ").map(String.init)
        #expect(command.first == "/usr/local/bin/hearth" && command.dropFirst().first == "serve", "\(command)")
        var environment: [String: String] = [:]
        for entry in unit where entry.key == "Environment" {
            let parts = entry.value.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }
        // Hardening and lifecycle a reviewer looks for; the database lives in the state directory.
        for (key, expected) in [
            ("DynamicUser", "yes"), ("StateDirectory", "hearth"), ("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
            ("Restart", "on-failure"), ("KillSignal", "SIGTERM"),
        ] {
            #expect(value(key) == expected, "\(key)=\(value(key) ?? "unset")")
        }
        #expect(environment["HEARTH_DATABASE"]?.hasPrefix("/var/lib/hearth/") == true)
        // The unit's own options and variables, with a temporary database and a free port (flags win).
        let server = try ServerProcess(Array(command.dropFirst(2)), environment: environment)
        defer { server.remove() }
        #expect(try server.get("/readyz").status == 200)
        #expect(server.stop() == 0)
    }
}
