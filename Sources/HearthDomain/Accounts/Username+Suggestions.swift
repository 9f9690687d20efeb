extension Username {
    /// The `number`-th username to offer an account created from `email` (sign-in with Google
    /// or Apple, where nobody chose a name), for trying one after another until a free one is
    /// found: number 1 is the address's local part cleaned to the username alphabet, number
    /// `n` ≥ 2 the same with `-n` appended, always within ``maximumLength``.
    ///
    /// Cleaning lowercases, drops a `+tag`, drops characters outside the alphabet (so
    /// `José.Núñez+chores` gives `jos.nez`), keeps one of each run of punctuation and trims it
    /// from both ends; what is left
    /// shorter than ``minimumLength`` is prefixed with `user-` (`user` alone when nothing is
    /// left).
    public static func suggestion(forEmail email: EmailAddress, number: Int) -> Username {
        let base = suggestionBase(localPart: email.value.prefix { $0 != "@" })
        let suffix = number <= 1 ? "" : "-\(number)"
        var candidate = Array(base.prefix(maximumLength - suffix.utf8.count))
        while let last = candidate.last, !isAlphanumeric(last) { candidate.removeLast() }
        let text = String(decoding: candidate, as: UTF8.self) + suffix
        do {
            return try Username(text, field: "username")
        } catch {
            preconditionFailure("a cleaned suggestion is always a valid username: \(error)")
        }
    }

    /// The cleaned local part, at least ``minimumLength`` bytes of the username alphabet,
    /// beginning and ending with a letter or digit.
    private static func suggestionBase(localPart: Substring) -> [UInt8] {
        let punctuation: Set<UInt8> = [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
        var kept: [UInt8] = []
        for byte in localPart.prefix(while: { $0 != "+" }).lowercased().utf8 {
            if isAlphanumeric(byte) {
                kept.append(byte)
            } else if punctuation.contains(byte), let last = kept.last, isAlphanumeric(last) {
                kept.append(byte)
            }
        }
        while let last = kept.last, !isAlphanumeric(last) { kept.removeLast() }
        if kept.isEmpty { return Array("user".utf8) }
        return kept.count < minimumLength ? Array("user-".utf8) + kept : kept
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
