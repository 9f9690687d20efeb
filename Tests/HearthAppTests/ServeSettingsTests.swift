@testable import HearthApp
import HearthStore
import Support
import Testing

@Suite struct ServeSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([])
        #expect(defaults.http.host == "127.0.0.1")
        #expect(defaults.http.port == 8080)
        #expect(defaults.http.parser.maxRequestLineLength == 8 * 1024)
        #expect(defaults.http.parser.maxHeaderBytes == 16 * 1024)
        #expect(defaults.http.parser.maxBodyBytes == 1 << 20)
        #expect(defaults.http.parser.headerReadTimeout == .seconds(10))
        #expect(defaults.http.idleTimeout == .seconds(60))
        #expect(defaults.http.maxConnections == 20_000)
        #expect(defaults.database.path == "./data/hearth.sqlite")
        #expect(defaults.database.pool.synchronous == .full)
        #expect(defaults.logLevel == .info)
        #expect(defaults.accessLog)
        #expect(defaults.autoMigrate)
        #expect(!defaults.testEndpoints)
        #expect(defaults.shutdownGracePeriod == .seconds(10))
    }

    @Test func everyLimitFlagReachesTheServerConfiguration() throws {
        let configured = try settings([
            "--max-request-line", "1KiB", "--max-header-bytes", "2KiB", "--max-body-bytes", "3MiB",
            "--header-timeout", "250ms", "--body-timeout", "2s", "--idle-timeout", "5m", "--max-connections", "99",
            "--gzip-min-bytes", "0", "--loops", "3", "--shutdown-grace", "1s", "--db-readers", "2",
            "--db-synchronous", "normal", "--db-busy-timeout", "100ms", "--log-level", "warn", "--access-log", "off",
        ])
        #expect(configured.http.parser.maxRequestLineLength == 1024)
        #expect(configured.http.parser.maxHeaderBytes == 2048)
        #expect(configured.http.parser.maxBodyBytes == 3 << 20)
        #expect(configured.http.parser.headerReadTimeout == .milliseconds(250))
        #expect(configured.http.parser.bodyReadTimeout == .seconds(2))
        #expect(configured.http.idleTimeout == .seconds(300))
        #expect(configured.http.maxConnections == 99)
        #expect(configured.http.compression.minimumBodySize == 0)
        #expect(configured.http.eventLoopCount == 3)
        #expect(configured.shutdownGracePeriod == .seconds(1))
        #expect(configured.database.pool.readerCount == 2)
        #expect(configured.database.pool.synchronous == .normal)
        #expect(configured.database.pool.busyTimeout == .milliseconds(100))
        #expect(configured.logLevel == .warning)
        #expect(!configured.accessLog)
    }

    @Test func rejectsValuesOutsideTheirRange() {
        #expect(throws: UsageError.self) { try settings(["--port", "70000"]) }
        #expect(throws: UsageError.self) { try settings(["--loops", "0"]) }
        #expect(throws: UsageError.self) { try settings(["--db-synchronous", "sometimes"]) }
        #expect(throws: UsageError.self) { try settings(["--log-level", "chatty"]) }
        #expect(throws: UsageError.self) { try settings(["--access-log", "maybe"]) }
        #expect(throws: UsageError.self) { try settings(["--header-timeout", "0ms"]) }
        #expect(throws: UsageError.self) { try settings(["--database", ""]) }
    }
}
