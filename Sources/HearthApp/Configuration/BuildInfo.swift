/// Facts fixed when the binary was built.
enum BuildInfo {
    /// The release version; bump it with every release.
    static let version = "0.1.0"
}
