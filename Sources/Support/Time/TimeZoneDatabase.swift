import FoundationEssentials

/// The IANA time zone database as the operating system installs it: one TZif file per zone
/// under `$TZDIR`, by default `/usr/share/zoneinfo` (Debian's `tzdata` package, which
/// `make serve` installs and the distribution keeps current).
///
/// Read from the system rather than from ICU's copy: linking ICU (FoundationInternationalization)
/// would add about 30 MB to the binary and several MiB of resident memory for what is, here,
/// a name check and later the reading of a few transition tables.
public enum TimeZoneDatabase {
    /// The directory holding the zone files.
    public static let directory: String = {
        if let value = ProcessInfo.processInfo.environment["TZDIR"], !value.isEmpty { return value }
        return "/usr/share/zoneinfo"
    }()

    /// The longest zone name accepted (the longest IANA name has 30 characters).
    public static let maximumNameLength = 64

    /// Whether `name` is a zone of the database: a relative path of letters, digits, `_`, `-`
    /// and `+` components (never `.` or `..`, never the `posix/` and `right/` variant trees)
    /// naming a file that starts with the TZif magic.
    public static func contains(_ name: String) -> Bool {
        contents(of: name) != nil
    }

    /// The bytes of zone `name`'s TZif file (RFC 8536), or nil when `name` is not a zone of the
    /// database (the same test as ``contains(_:)``). HearthDomain's `TimeZoneRules` reads them.
    public static func contents(of name: String) -> [UInt8]? {
        guard isWellFormed(name) else { return nil }
        // Zone files are a few kilobytes; reading one whole is simpler than a partial read.
        guard let contents = FileManager.default.contents(atPath: directory + "/" + name),
            contents.starts(with: Array("TZif".utf8))
        else { return nil }
        return Array(contents)
    }

    private static func isWellFormed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumNameLength, !name.hasPrefix("posix/"), !name.hasPrefix("right/") else {
            return false
        }
        return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { component in
            !component.isEmpty && component != "." && component != ".."
                && component.utf8.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                }
        }
    }
}
