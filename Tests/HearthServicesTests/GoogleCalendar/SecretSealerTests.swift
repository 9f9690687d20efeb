import HearthServices
import Support
import Testing

/// Secrets sealed for the database open only under their key, read differently each time, and
/// refuse text changed or of another key version.
struct SecretSealerTests {
    private let sealer = SecretSealer(key: [UInt8](repeating: 7, count: 32))

    @Test func sealedSecretsOpenUnderTheirKeyOnlyAndNeverReadTheSame() throws {
        let sealed = sealer.seal("1//refresh-token")
        #expect(sealed.hasPrefix("v1.") && !sealed.contains("refresh"))
        #expect(try sealer.open(sealed) == "1//refresh-token")
        #expect(sealer.seal("1//refresh-token") != sealed, "a fresh nonce every time")
        #expect(throws: SecretSealerError.self) { try SecretSealer(key: [UInt8](repeating: 8, count: 32)).open(sealed) }
    }

    @Test func changedMalformedOrOtherVersionTextIsRefused() throws {
        let sealed = sealer.seal("secret")
        var parts = sealed.split(separator: ".").map(String.init)
        var body = try #require(Base64URL.decode(parts[2]))
        body[0] ^= 1
        parts[2] = Base64URL.encode(body)
        #expect(throws: SecretSealerError.self) { try sealer.open(parts.joined(separator: ".")) }
        #expect(throws: SecretSealerError.self) { try sealer.open("v2" + sealed.dropFirst(2)) }
        #expect(throws: SecretSealerError.self) { try sealer.open("secret") }
        #expect(throws: SecretSealerError.self) { try sealer.open("v1.!!.!!") }
    }
}
