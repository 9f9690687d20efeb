/// A scrypt hash in the PHC string format: `$scrypt$ln=<logN>,r=<r>,p=<p>$<salt>$<key>`,
/// salt and key in unpadded standard base64. Parsing accepts exactly the form `encoded`
/// writes.
struct PHCString: Equatable {
    var parameters: ScryptParameters
    var salt: [UInt8]
    var key: [UInt8]

    /// Accepted salt lengths, in bytes.
    static let saltLengths = 8...64
    /// Accepted key lengths, in bytes.
    static let keyLengths = 16...64

    init(parameters: ScryptParameters, salt: [UInt8], key: [UInt8]) {
        self.parameters = parameters
        self.salt = salt
        self.key = key
    }

    /// Parses `text`.
    ///
    /// - Throws: `.malformedHash` when it is not the format above; `.unsupportedParameters`
    ///   when the parameters are out of scrypt's range or over the memory limit.
    init(parsing text: String) throws(PasswordHashError) {
        let fields = text.utf8.split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1].elementsEqual("scrypt".utf8) else {
            throw PasswordHashError(.malformedHash, "not a $scrypt$ PHC string")
        }
        let assignments = fields[2].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard assignments.count == 3,
            let logN = Self.number(assignments[0], named: "ln"), logN <= UInt32(UInt8.max),
            let r = Self.number(assignments[1], named: "r"),
            let p = Self.number(assignments[2], named: "p")
        else {
            throw PasswordHashError(.malformedHash, "PHC parameters must be ln=…,r=…,p=…")
        }
        guard let salt = Base64Alphabet.standard.decode(Substring(fields[3])), Self.saltLengths.contains(salt.count),
            let key = Base64Alphabet.standard.decode(Substring(fields[4])), Self.keyLengths.contains(key.count)
        else {
            throw PasswordHashError(.malformedHash, "PHC salt or hash is not valid base64 of an accepted length")
        }
        parameters = ScryptParameters(logN: UInt8(logN), r: r, p: p)
        guard parameters.isSupported else {
            throw PasswordHashError(.unsupportedParameters, "stored scrypt parameters \(parameters) are not supported")
        }
        self.salt = salt
        self.key = key
    }

    /// The PHC text.
    var encoded: String {
        "$scrypt$ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)$"
            + Base64Alphabet.standard.encode(salt) + "$" + Base64Alphabet.standard.encode(key)
    }

    /// The value of `name=<decimal>`: digits only, no sign, no leading zero, fits in UInt32.
    private static func number(_ assignment: Substring.UTF8View.SubSequence, named name: String) -> UInt32? {
        let parts = assignment.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].elementsEqual(name.utf8) else { return nil }
        let digits = parts[1]
        guard (1...10).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.count == 1 || digits.first != 0x30
        else { return nil }
        return UInt32(String(decoding: digits, as: UTF8.self))
    }
}
