import Support
import Testing

/// `KeyedHash` spreads keys: equal bytes hash alike however the string was made, and a change
/// of any one byte, at any position of any length the sixteen-byte steps and the tail meet,
/// changes the hash. `String.hasSameUTF8(as:)` compares bytes, not canonical equivalence.
@Suite struct KeyedHashTests {
    @Test func equalBytesHashAlike() {
        let text = String(repeating: "query Q { field } ", count: 40)
        let built = (0..<40).map { _ in "query Q { field } " }.joined()
        #expect(KeyedHash.hash(text) == KeyedHash.hash(built))
        #expect(KeyedHash.hash("") == KeyedHash.hash(String()))
    }

    @Test func everyByteOfEveryLengthCounts() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let original = hash(bytes)
            for position in 0..<length {
                for bit in [0, 3, 7] {
                    var changed = bytes
                    changed[position] ^= 1 << bit
                    #expect(hash(changed) != original, "length \(length), byte \(position), bit \(bit)")
                }
            }
        }
    }

    @Test func lengthCounts() {
        // Zero bytes of different lengths pad the tail alike; the length must still tell them apart.
        let hashes = (0...48).map { hash([UInt8](repeating: 0, count: $0)) }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test func hashesSpreadOverBuckets() {
        // Texts alike but for a counter, as a client's generated documents are: the low bits of
        // their hashes (what a dictionary's buckets use) fill 256 buckets about evenly.
        var buckets = [Int](repeating: 0, count: 256)
        for index in 0..<25_600 {
            buckets[Int(KeyedHash.hash("query Q\(index) { chores(first: 10) { id title } }") & 255)] += 1
        }
        #expect(buckets.min()! > 40 && buckets.max()! < 180, "\(buckets.min()!)…\(buckets.max()!)")
    }

    @Test func sameUTF8ComparesBytes() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "canonically equivalent")
        #expect(!composed.hasSameUTF8(as: decomposed))
        #expect(composed.hasSameUTF8(as: "caf" + "\u{E9}"))
        #expect("".hasSameUTF8(as: ""))
        #expect(!"a".hasSameUTF8(as: "ab"))
        #expect(KeyedHash.hash(composed) != KeyedHash.hash(decomposed))
    }

    private func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { KeyedHash.hash($0) }
    }
}
