@testable import HearthApp
import HearthHTTP
import HearthServices
import Testing

/// `--loop-import-max-bytes` (and its environment variable) reaches the importer and the body
/// limit of `POST /import/loop`, with the documented default and range.
@Suite struct HabitPortingSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func theDefaultIsTwoMebibytesForTheImporterAndTheImportRoutesBody() throws {
        let defaults = try settings([])
        #expect(defaults.habitPorting == HabitPortingConfiguration(maxImportBytes: 2 << 20))
        #expect(defaults.http.parser.bodyLimitRules.contains(BodyLimitRule(method: .post, path: "/import/loop", maxBodyBytes: 2 << 20)))
    }

    @Test func theFlagAndTheEnvironmentReachTheLimit() throws {
        #expect(try settings(["--loop-import-max-bytes", "64KiB"]).habitPorting.maxImportBytes == 64 << 10)
        #expect(try settings([], environment: ["HEARTH_LOOP_IMPORT_MAX_BYTES": "4096"]).habitPorting.maxImportBytes == 4096)
    }

    @Test func valuesAtTheEdgesOfTheRangePassAndOnePastFails() throws {
        #expect(try settings(["--loop-import-max-bytes", "1024"]).habitPorting.maxImportBytes == 1024)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-bytes", "1023"]) }
        #expect(try settings(["--loop-import-max-bytes", "\(1 << 30)"]).habitPorting.maxImportBytes == 1 << 30)
        #expect(throws: UsageError.self) { try settings(["--loop-import-max-bytes", "\((1 << 30) + 1)"]) }
    }
}
