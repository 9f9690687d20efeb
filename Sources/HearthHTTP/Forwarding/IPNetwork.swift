/// A block of IP addresses in CIDR notation: `10.0.0.0/8`, `2001:db8::/32`, or a single address
/// (`192.0.2.7`, `::1`) for a block of one.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the block.
    public let address: IPAddress
    /// Leading bits that every address of the block shares with ``address``, counted on the
    /// 128-bit form (an IPv4 `/8` is 104 here); see ``description`` for the written form.
    let prefixLength: Int

    /// Why a text is not a network.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The text that was given.
        public var text: String
        /// What is wrong with it.
        public var reason: String
        /// `'text': reason`.
        public var description: String { "'\(text)' \(reason)" }
    }

    /// Parses `address[/prefix]`. The prefix is at most 32 for IPv4 and 128 for IPv6, and the
    /// address must be the block's first (no bits set past the prefix): `10.0.0.1/8` is refused
    /// rather than silently widened, since it usually means a mistyped rule.
    /// - Throws: ``ParseError`` naming the problem.
    public init(_ text: some StringProtocol) throws(ParseError) {
        let string = String(text)
        let parts = string.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else {
            throw ParseError(text: string, reason: "is not an IP address or CIDR block")
        }
        // The written form decides the family: `::ffff:0:0/96` is an IPv6 block (of every IPv4 address).
        let width = parts[0].utf8.contains(UInt8(ascii: ":")) ? 128 : 32
        var prefix = width
        if parts.count == 2 {
            guard let written = Int(parts[1]), parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), written <= width else {
                throw ParseError(text: string, reason: "has no prefix length between 0 and \(width)")
            }
            prefix = written
        }
        let prefixLength = prefix + (128 - width)
        guard Self.masked(address, prefixLength) == address else {
            throw ParseError(
                text: string, reason: "has bits set after the prefix; the block starts at \(Self.masked(address, prefixLength))")
        }
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Whether `candidate` lies in the block.
    public func contains(_ candidate: IPAddress) -> Bool {
        Self.masked(candidate, prefixLength) == address
    }

    /// `address/prefix` in the family's own terms (`10.0.0.0/8`, `2001:db8::/32`).
    public var description: String {
        "\(address)/\(address.isIPv4 ? prefixLength - 96 : prefixLength)"
    }

    /// `address` with every bit after the first `length` cleared.
    private static func masked(_ address: IPAddress, _ length: Int) -> IPAddress {
        func keep(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> bits) }
        return IPAddress(high: address.high & keep(length), low: address.low & keep(length - 64))
    }
}
