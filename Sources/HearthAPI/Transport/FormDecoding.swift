/// `application/x-www-form-urlencoded` decoding (WHATWG URL): `+` is a space, `%XX` a byte.
/// Read by GraphQL's `GET` query strings and by the web pages' query strings and form bodies.
enum FormDecoding {
    /// Why a form could not be read.
    enum Problem: Error, Equatable {
        /// A malformed `%` escape, or bytes that are not UTF-8.
        case malformed
        /// A parameter given more than once (which value counts would be a guess).
        case repeated(String)
    }

    /// The parameters of `form` (`name=value&…`) by name; a name without `=` has the empty value.
    /// - Throws: ``Problem``.
    static func parameters(_ form: Substring) throws(Problem) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in form.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(halves[0]), let value = decode(halves.count == 2 ? halves[1] : "") else {
                throw .malformed
            }
            guard parameters.updateValue(value, forKey: name) == nil else { throw .repeated(name) }
        }
        return parameters
    }

    /// The decoded text, or `nil` for a malformed escape or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
