/// A dictionary that remembers insertion order: GraphQL responses and input objects are
/// ordered maps, and Swift's `Dictionary` is not.
///
/// Small maps (the common case: a few fields) are searched linearly, which beats hashing;
/// once a map grows past `indexThreshold` entries it keeps a hash index so that lookups
/// stay O(1). Assigning to an existing key keeps its position; removal is O(n).
public struct OrderedMap<Key: Hashable, Value> {
    /// Entry count above which a hash index is maintained.
    @usableFromInline static var indexThreshold: Int { 12 }

    @usableFromInline var storedKeys: [Key]
    @usableFromInline var storedValues: [Value]
    @usableFromInline var index: [Key: Int]?

    /// Creates an empty map.
    @inlinable
    public init() {
        storedKeys = []
        storedValues = []
        index = nil
    }

    /// Creates an empty map with room for `capacity` entries.
    @inlinable
    public init(minimumCapacity capacity: Int) {
        self.init()
        storedKeys.reserveCapacity(capacity)
        storedValues.reserveCapacity(capacity)
    }

    /// The keys, in insertion order.
    @inlinable public var keys: [Key] { storedKeys }
    /// The values, in key insertion order.
    @inlinable public var values: [Value] { storedValues }
    /// The number of entries.
    @inlinable public var count: Int { storedKeys.count }
    /// Whether the map has no entries.
    @inlinable public var isEmpty: Bool { storedKeys.isEmpty }

    /// The position of `key` in insertion order, or `nil` if it is absent.
    @inlinable
    public func index(forKey key: Key) -> Int? {
        if let index { return index[key] }
        return storedKeys.firstIndex(of: key)
    }

    /// The value for `key`; assigning `nil` removes the entry.
    @inlinable
    public subscript(key: Key) -> Value? {
        get {
            guard let position = index(forKey: key) else { return nil }
            return storedValues[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key`, appending the key if it is new.
    /// - Returns: The value that was replaced, or `nil` if the key was new.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if let position = index(forKey: key) {
            let old = storedValues[position]
            storedValues[position] = value
            return old
        }
        storedKeys.append(key)
        storedValues.append(value)
        if index != nil {
            index![key] = storedKeys.count - 1
        } else if storedKeys.count > Self.indexThreshold {
            buildIndex()
        }
        return nil
    }

    /// Removes the entry for `key`, keeping the order of the others.
    /// - Returns: The removed value, or `nil` if the key was absent.
    @inlinable
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let position = index(forKey: key) else { return nil }
        storedKeys.remove(at: position)
        let old = storedValues.remove(at: position)
        if index != nil {
            if storedKeys.count > Self.indexThreshold { buildIndex() } else { index = nil }
        }
        return old
    }

    @usableFromInline
    mutating func buildIndex() {
        var built = [Key: Int](minimumCapacity: storedKeys.count)
        for (position, key) in storedKeys.enumerated() { built[key] = position }
        index = built
    }
}

extension OrderedMap: Sequence {
    /// Iterates over the entries in insertion order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let map: OrderedMap
        @usableFromInline var position = 0

        @inlinable init(map: OrderedMap) { self.map = map }

        /// The next entry, or `nil` at the end.
        @inlinable
        public mutating func next() -> (key: Key, value: Value)? {
            guard position < map.storedKeys.count else { return nil }
            defer { position += 1 }
            return (map.storedKeys[position], map.storedValues[position])
        }
    }

    /// An iterator over the entries in insertion order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(map: self) }

    /// The number of entries.
    @inlinable public var underestimatedCount: Int { count }
}

extension OrderedMap: ExpressibleByDictionaryLiteral {
    /// Creates a map from a literal; a repeated key keeps its first position and last value.
    @inlinable
    public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init(minimumCapacity: elements.count)
        for (key, value) in elements { updateValue(value, forKey: key) }
    }
}

extension OrderedMap: Equatable where Value: Equatable {
    /// Two maps are equal when they hold equal entries in the same order.
    @inlinable
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool {
        lhs.storedKeys == rhs.storedKeys && lhs.storedValues == rhs.storedValues
    }
}

extension OrderedMap: Hashable where Value: Hashable {
    /// Hashes the entries in order.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedKeys)
        hasher.combine(storedValues)
    }
}

extension OrderedMap: Sendable where Key: Sendable, Value: Sendable {}

extension OrderedMap: CustomStringConvertible {
    /// The entries as `[key: value, …]` in order.
    public var description: String {
        if isEmpty { return "[:]" }
        return "[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
