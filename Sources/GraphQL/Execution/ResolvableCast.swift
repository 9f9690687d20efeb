/// `value as? any FieldResolvable`, with the runtime's cast done once per Swift type rather
/// than once per object.
///
/// The cast costs about a thousand instructions (the value's dynamic type, a conformance
/// lookup in the runtime's cache, the existential built), as much as the rest of executing
/// a small object, and the executor makes it for every object it completes. An `Any` holds
/// three words of inline buffer and the held type's metadata; an `any FieldResolvable` holds
/// the same four words followed by the conformance's witness table (the Swift ABI's opaque
/// existential layout). So once a cast has found the witness table of a type, a later value
/// of exactly that type becomes the existential by copying its container (which retains
/// what it holds, as any copy does) and appending the table.
///
/// A table is remembered only when the cast's result holds exactly the container's type: a
/// container whose value the cast had to unwrap (an `Optional`, an `AnyHashable`) or whose
/// class instance conforms only as a subclass is cast afresh every time. Failed casts are not
/// remembered either, for the same reason (`AnyHashable` of a conforming value).
enum ResolvableCast {
    /// Witness tables found so far, by the type metadata of the values they were found for:
    /// room for four times the types of the schema's objects.
    private static let witnessTables = WitnessTableCache(slotCount: 512)

    private static let word = MemoryLayout<Int>.size

    /// Whether the containers have the layout this relies on; checked once.
    private static let layoutHolds =
        MemoryLayout<Any>.size == 4 * word && MemoryLayout<any FieldResolvable>.size == 5 * word

    /// `value` as an `any FieldResolvable`, or `nil` when its type does not conform.
    static func resolvable(_ value: Any) -> (any FieldResolvable)? {
        guard layoutHolds else { return value as? any FieldResolvable }
        // (`value as Any` below keeps the container closed: a plain `value` would be opened.)
        let metadata = withUnsafeBytes(of: value as Any) { $0.load(fromByteOffset: 3 * word, as: UInt.self) }
        if let table = witnessTables.table(for: metadata) {
            return existential(copying: value, witnessTable: table)
        }
        guard let resolvable = value as? any FieldResolvable else { return nil }
        let (castMetadata, table) = withUnsafeBytes(of: resolvable as any FieldResolvable) {
            ($0.load(fromByteOffset: 3 * word, as: UInt.self), $0.load(fromByteOffset: 4 * word, as: UInt.self))
        }
        if castMetadata == metadata { witnessTables.insert(table, for: metadata) }
        return resolvable
    }

    /// An `any FieldResolvable` holding a copy of what `value` holds, with the witness table
    /// `table` of its type's conformance.
    @inline(__always)
    private static func existential(copying value: Any, witnessTable table: UInt) -> any FieldResolvable {
        withUnsafeTemporaryAllocation(byteCount: 5 * word, alignment: MemoryLayout<Any>.alignment) { buffer in
            let start = buffer.baseAddress.unsafelyUnwrapped
            // A proper copy of the container (the buffer's value retained), then the table.
            start.initializeMemory(as: Any.self, repeating: value, count: 1)
            start.storeBytes(of: table, toByteOffset: 4 * word, as: UInt.self)
            // The five words are now an `any FieldResolvable`, which takes over the copy.
            return start.bindMemory(to: (any FieldResolvable).self, capacity: 1).move()
        }
    }
}
