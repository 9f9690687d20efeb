/// Limits and switches for `Parser`.
///
/// Both limits protect a server from hostile documents; both errors are ordinary syntax
/// errors with a location, reported before any further work is done.
public struct ParseOptions: Sendable {
    /// The default `maxDepth`: deep enough for any real document (the standard introspection
    /// query nests about 15 levels) and safe on Linux's default 8 MiB thread stack. Each
    /// level of nesting costs the recursive-descent parser about 1 KiB of stack in a release
    /// build and about 6 KiB in a debug build, so 256 levels need about 256 KiB (release) or
    /// under 2 MiB (debug). Walking a tree uses no call-stack depth at all.
    public static let defaultMaxDepth = 256

    /// The largest number of tokens a document may have; `nil` (the default, as in
    /// graphql-js) means no limit. Servers should set one, e.g. 15,000.
    public var maxTokens: Int?
    /// The deepest nesting of selection sets, list and object values, and list types.
    public var maxDepth: Int

    /// Creates options.
    public init(maxTokens: Int? = nil, maxDepth: Int = ParseOptions.defaultMaxDepth) {
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
    }
}
