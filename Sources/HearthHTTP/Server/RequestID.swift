/// Request ids: the client's own when acceptable, otherwise short unique ones generated per event loop.
struct RequestIDGenerator {
    private let prefix: String
    private var counter: UInt64 = 0

    /// Ids look like `k3f9a-1b`: a random four-character prefix plus the loop's index, then a per-loop counter
    /// in base 36. Short enough to stay inline in a String (no allocation) for billions of requests.
    init(loopIndex: Int) {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        prefix = String(random) + String(alphabet[loopIndex % alphabet.count]) + "-"
    }

    mutating func next() -> String {
        counter &+= 1
        return prefix + String(counter, radix: 36)
    }

    /// Whether a client-supplied id is safe to echo and log: 1 to 64 characters from `A-Z a-z 0-9 - _ . : / + = @`.
    static func isAcceptable(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= 64 else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            default: "-_.:/+=@".utf8.contains(byte)
            }
        }
    }
}
