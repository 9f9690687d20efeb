/// Statement arguments encoded for `PQexecPrepared`: text format for every value (PostgreSQL
/// parses it into the parameter's inferred type), binary for blobs (raw `bytea` bytes), a null
/// pointer for `NULL`. The bytes sit in one buffer, each value NUL-terminated.
struct PostgresParameters {
    private var buffer: [UInt8] = []
    /// Each value's offset in ``buffer``, `nil` for `NULL`.
    private var offsets: [Int?] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    init(_ arguments: StatementArguments) {
        offsets.reserveCapacity(arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null:
                append(nil, format: 0)
            case .integer(let integer):
                append(Array(String(integer).utf8), format: 0)
            case .real(let real):
                append(Array(Self.text(of: real).utf8), format: 0)
            case .text(let text):
                append(Array(text.utf8), format: 0)
            case .blob(let bytes):
                append(bytes, format: 1)
            }
        }
    }

    /// PostgreSQL's spellings of the non-finite doubles; Swift's description otherwise, which
    /// round-trips exactly.
    private static func text(of real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return String(real)
    }

    private mutating func append(_ bytes: [UInt8]?, format: Int32) {
        formats.append(format)
        guard let bytes else {
            offsets.append(nil)
            lengths.append(0)
            return
        }
        offsets.append(buffer.count)
        lengths.append(Int32(bytes.count))
        buffer.append(contentsOf: bytes)
        buffer.append(0)
    }

    /// Calls `body` with the value pointers, lengths and formats libpq takes; the pointers are
    /// valid only during the call.
    func withPointers<T>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        buffer.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.flatMap { base?.advanced(by: $0) } }
            return pointers.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
