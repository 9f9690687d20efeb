/// Little-endian integers and bytes appended to a buffer: the fields of zip headers.
struct ByteWriter {
    /// The bytes so far.
    private(set) var output: [UInt8] = []

    mutating func uint16(_ value: UInt16) {
        output.append(UInt8(truncatingIfNeeded: value))
        output.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func bytes(_ bytes: [UInt8]) {
        output.append(contentsOf: bytes)
    }
}
