import HearthStore
import Synchronization

/// The statements run under one kind of scope (``ScopeKey/statements``), each rewritten once from
/// its scoped text: the marker replaced by `?`, and where the key goes among the arguments.
///
/// A call costs one dictionary lookup of the statement's text, hashed by its ends (``SQLTextKey``;
/// the store's statement cache pays one more); the text is read byte by byte only the first time it is seen. Statement texts are
/// few (literals with column lists interpolated), but a text built from input sizes (`IN (?, ?)`
/// of up to a hundred ids) varies, so at most ``capacity`` texts are kept; others are rewritten at
/// each call, which is correct, only slower.
final class ScopedStatements: Sendable {
    /// The marker the texts carry.
    let marker: String
    /// How many rewritten texts are kept.
    let capacity: Int
    private let rewritten = Mutex<[SQLTextKey: ScopedStatement]>([:])

    /// An empty cache for texts carrying `marker`.
    init(marker: String, capacity: Int = 512) {
        self.marker = marker
        self.capacity = capacity
    }

    /// `sql` rewritten for the store.
    /// - Throws: ``StoreError`` `.misuse` when `sql` does not carry the marker.
    func statement(for sql: String) throws -> ScopedStatement {
        if let known = rewritten.withLock({ $0[SQLTextKey(sql)] }) { return known }
        let statement = try ScopedStatement(sql, marker: marker)
        rewritten.withLock { cache in
            if cache.count < capacity { cache[SQLTextKey(sql)] = statement }
        }
        return statement
    }

    /// How many rewritten texts are kept (for tests of the bound).
    var count: Int { rewritten.withLock { $0.count } }
}

/// One scoped statement as the store runs it.
struct ScopedStatement: Sendable {
    /// The SQL with a `?` wherever the marker was.
    let sql: String
    /// The positions, among the statement's arguments, where the key is bound: one per marker.
    let slots: [Int]

    /// Rewrites `scoped`, counting the `?` placeholders before each marker (SQL outside the store
    /// never holds a `?` in a quoted string: docs/architecture.md, "Portable SQL").
    /// - Throws: ``StoreError`` `.misuse` when `scoped` does not carry `marker`.
    init(_ scoped: String, marker: String) throws {
        let text = Array(scoped.utf8)
        let pattern = Array(marker.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var slots: [Int] = []
        var position = 0
        var index = 0
        while index < text.count {
            if text[index] == pattern[0], text.count - index >= pattern.count, text[index..<(index + pattern.count)].elementsEqual(pattern) {
                slots.append(position)
                position += 1
                output.append(UInt8(ascii: "?"))
                index += pattern.count
                continue
            }
            if text[index] == UInt8(ascii: "?") { position += 1 }
            output.append(text[index])
            index += 1
        }
        guard !slots.isEmpty else {
            throw StoreError(extendedCode: .misuse, message: "a scoped statement must name its scope with \(marker)", sql: scoped)
        }
        sql = String(decoding: output, as: UTF8.self)
        self.slots = slots
    }

    /// The caller's `arguments` with `key` inserted at every slot.
    func arguments(_ arguments: StatementArguments, key: String) -> StatementArguments {
        var values: [DatabaseValue] = []
        values.reserveCapacity(arguments.values.count + slots.count)
        var given = arguments.values[...]
        for slot in slots {
            while values.count < slot, let next = given.popFirst() { values.append(next) }
            values.append(.text(key))
        }
        values.append(contentsOf: given)
        var bound = StatementArguments([])
        bound.values = values
        return bound
    }
}
