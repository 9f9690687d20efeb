@testable import Support
import Testing

@Suite struct CryptoPasswordHasherTests {
    /// Cheap parameters so the tests that do not check the cost itself run quickly.
    let hasher = PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))

    @Test(arguments: [
        ("", "", ScryptParameters(logN: 4, r: 1, p: 1),
         "77 d6 57 62 38 65 7b 20 3b 19 ca 42 c1 8a 04 97 f1 6b 48 44 e3 07 4a e8 df df fa 3f ed e2 14 42 fc d0 06 9d ed 09 48 f8 32 6a 75 3a 0f c8 1f 17 e8 d3 e0 fb 2e 0d 36 28 cf 35 e2 0c 38 d1 89 06"),
        ("password", "NaCl", ScryptParameters(logN: 10, r: 8, p: 16),
         "fd ba be 1c 9d 34 72 00 78 56 e7 19 0d 01 e9 fe 7c 6a d7 cb c8 23 78 30 e7 73 76 63 4b 37 31 62 2e af 30 d9 2e 22 a3 88 6f f1 09 27 9d 98 30 da c7 27 af b9 4a 83 ee 6d 83 60 cb df a2 cc 06 40"),
        ("pleaseletmein", "SodiumChloride", ScryptParameters(logN: 14, r: 8, p: 1),
         "70 23 bd cb 3a fd 73 48 46 1c 06 cd 81 fd 38 eb fd a8 fb ba 90 4f 8e 3e a9 b5 43 f6 54 5d a1 f2 d5 43 29 55 61 3f 0f cf 62 d4 97 05 24 2a 9a f9 e6 1e 85 dc 0d 65 1e 40 df cf 01 7b 45 57 58 87"),
    ] as [(String, String, ScryptParameters, String)])
    func scryptMatchesTheRFC7914Vectors(password: String, salt: String, parameters: ScryptParameters, expected: String) throws {
        let key = try PasswordHasher.derive(password: password.utf8, salt: Array(salt.utf8), parameters: parameters, length: 64)
        #expect(key == hexBytes(expected))
    }

    @Test func hashesIntoAPHCStringThatVerifies() throws {
        let encoded = try hasher.hash("correct horse battery staple")
        #expect(encoded.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        let fields = encoded.split(separator: "$")
        #expect(fields.count == 4)
        #expect(fields[2].count == 22)  // 16-byte salt, unpadded base64
        #expect(fields[3].count == 43)  // 32-byte key
        #expect(try hasher.verify("correct horse battery staple", against: encoded))
    }

    @Test func rejectsTheWrongPassword() throws {
        let encoded = try hasher.hash("correct horse battery staple")
        #expect(try !hasher.verify("correct horse battery stapler", against: encoded))
        #expect(try !hasher.verify("", against: encoded))
    }

    @Test func saltsEveryHash() throws {
        #expect(try hasher.hash("same password") != hasher.hash("same password"))
    }

    @Test func verifiesWithTheParametersStoredInTheHash() throws {
        let old = try PasswordHasher(parameters: ScryptParameters(logN: 8, r: 4, p: 2)).hash("pässwörd 🔑")
        #expect(try hasher.verify("pässwörd 🔑", against: old))
    }

    @Test func verifiesAHashMadeByAnotherImplementation() throws {
        // Python: hashlib.scrypt(b"hunter2hunter2", salt=bytes(range(16)), n=1024, r=8, p=1, dklen=32),
        // both encoded in unpadded standard base64.
        let encoded = "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$InUPr/P8m7AqXuzIbvoWU9FLTArN6Jk4nVpC2gD0Cic"
        #expect(try hasher.verify("hunter2hunter2", against: encoded))
    }

    @Test(arguments: [
        "",
        "scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$argon2id$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$r=8,ln=10,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=010,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=+10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=8$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw==$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=8,p=1$AAEC$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAEC",
        "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8$",
        "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8-",
    ])
    func rejectsMalformedPHCStrings(encoded: String) {
        do {
            _ = try hasher.verify("password", against: encoded)
            Issue.record("verification should have thrown")
        } catch {
            #expect(error.code == .malformedHash)
        }
    }

    @Test(arguments: [
        "$scrypt$ln=0,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=30,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=0,p=1$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
        "$scrypt$ln=10,r=8,p=4294967295$AAECAwQFBgcICQoLDA0ODw$AAECAwQFBgcICQoLDA0ODwABAgMEBQYHCAkKCwwNDg8",
    ])
    func refusesStoredParametersThatAreInvalidOrTooExpensive(encoded: String) {
        do {
            _ = try hasher.verify("password", against: encoded)
            Issue.record("verification should have thrown")
        } catch {
            #expect(error.code == .unsupportedParameters)
        }
    }

    @Test func refusesToHashOverlongPasswordsAndNeverMatchesThem() throws {
        let long = String(repeating: "a", count: PasswordHasher.maximumPasswordBytes + 1)
        #expect(throws: PasswordHashError.self) { try hasher.hash(long) }
        let encoded = try hasher.hash("short password")
        #expect(try !hasher.verify(long, against: encoded))
    }

    @Test func asksForARehashWhenTheStoredParametersAreWeaker() throws {
        let weaker = try PasswordHasher(parameters: ScryptParameters(logN: 8, r: 8, p: 1)).hash("password")
        let smallerBlocks = try PasswordHasher(parameters: ScryptParameters(logN: 10, r: 4, p: 1)).hash("password")
        let stronger = try PasswordHasher(parameters: ScryptParameters(logN: 11, r: 8, p: 2)).hash("password")
        #expect(hasher.needsRehash(weaker))
        #expect(hasher.needsRehash(smallerBlocks))
        #expect(!hasher.needsRehash(try hasher.hash("password")))
        #expect(!hasher.needsRehash(stronger))
        #expect(hasher.needsRehash("not a hash"))
    }

    @Test func hashesWithTheRecommendedParametersByDefault() throws {
        let hasher = PasswordHasher()
        #expect(hasher.parameters == ScryptParameters(logN: 17, r: 8, p: 1))
        let encoded = try hasher.hash("recommended")
        #expect(encoded.hasPrefix("$scrypt$ln=17,r=8,p=1$"))
        #expect(try hasher.verify("recommended", against: encoded))
        #expect(!hasher.needsRehash(encoded))
    }
}
