import HearthDomain
import Testing

struct EmailAddressTests {
    @Test(arguments: [
        ("ana@example.com", "ana@example.com"), (" Ana.Lopez+hearth@Example.COM ", "Ana.Lopez+hearth@example.com"),
        ("o'neil@mail.example.org", "o'neil@mail.example.org"), ("josé@exämple.de", "josé@exämple.de"),
    ])
    func normalisesTheDomainAndKeepsTheLocalPart(text: String, expected: String) throws {
        #expect(try EmailAddress(text, field: "input.email").value == expected)
    }

    @Test func keysIgnoreCase() throws {
        #expect(try EmailAddress("Ana@Example.com", field: "f").key == "ana@example.com")
    }

    @Test(arguments: [
        "plainaddress", "@example.com", "ana@", "ana@example", "ana@@example.com", "ana@exa mple.com",
        "ana..lopez@example.com", ".ana@example.com", "ana.@example.com", "ana@-example.com", "ana@example-.com",
        "ana@192.168.0.1", "ana@[192.168.0.1]", "\"ana\"@example.com", "ana@example..com",
        String(repeating: "a", count: 65) + "@example.com",
    ])
    func refusesMalformedAddresses(text: String) {
        #expect(throws: FieldProblem.self) { try EmailAddress(text, field: "input.email") }
    }

    @Test func refusesOverlongAddressesAsTooLong() {
        let long = String(repeating: "a", count: 60) + "@" + String(repeating: "b.", count: 100) + "com"
        do { _ = try EmailAddress(long, field: "input.email") } catch { #expect(error.reason == .tooLong) }
    }

    @Test func refusesAnEmptyAddressAsRequired() {
        do { _ = try EmailAddress("  ", field: "input.email") } catch { #expect(error.reason == .required) }
    }
}
