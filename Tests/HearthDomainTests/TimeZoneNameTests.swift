import HearthDomain
import Testing

struct TimeZoneNameTests {
    @Test(arguments: ["Europe/Paris", "America/New_York", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "UTC"])
    func acceptsRegionNamesAndUTC(name: String) throws {
        #expect(try TimeZoneName(name, field: "input.timeZone").name == name)
    }

    @Test func trimsSurroundingWhiteSpaceAndKeepsTheZone() throws {
        let zone = try TimeZoneName("  Europe/Lisbon\n", field: "input.timeZone")
        #expect(zone.name == "Europe/Lisbon" && zone.description == "Europe/Lisbon")
    }

    @Test(arguments: ["", "CET", "EST", "+01:00", "GMT+1", "Mars/Olympus_Mons", "Europe/", "Europe/Paris/Extra", String(repeating: "A/", count: 40),
                          "europe/paris", "Europe/../Europe/Paris", "/etc/passwd", "../zoneinfo/Europe/Paris", "right/Europe/Paris",
                          "posix/Europe/Paris", "zone.tab", "Europe/Paris\u{0}", "Europe//Paris"])
    func refusesOffsetsAbbreviationsAndUnknownNames(text: String) {
        #expect(throws: FieldProblem(field: "input.timeZone", reason: .unknownValue, message: "Choose a time zone such as Europe/Paris.")) {
            try TimeZoneName(text, field: "input.timeZone")
        }
    }

    @Test func utcIsAlwaysAvailable() {
        #expect(TimeZoneName.utc.name == "UTC" && TimeZoneName.utc == (try? TimeZoneName("UTC", field: "")))
    }
}
