/// How a ``TLSClient`` verifies servers. Certificate and host-name verification are always
/// on; what can be chosen is whom to trust and the oldest protocol version.
public struct TLSConfiguration: Sendable, Hashable {
    /// The oldest TLS version accepted.
    public enum MinimumVersion: Sendable, Hashable {
        /// TLS 1.2 (RFC 5246), the default: what mail and identity providers still offer.
        case tls12
        /// TLS 1.3 (RFC 8446) only.
        case tls13
    }

    /// A PEM file of the certificate authorities to trust instead of the system's store
    /// (`/etc/ssl/certs`), for a private mail relay or tests; nil trusts the system's store.
    public var certificateAuthorityFile: String?
    /// The oldest TLS version accepted; TLS 1.2 by default.
    public var minimumVersion: MinimumVersion

    /// A configuration trusting `certificateAuthorityFile`, or the system's store when nil.
    public init(certificateAuthorityFile: String? = nil, minimumVersion: MinimumVersion = .tls12) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.minimumVersion = minimumVersion
    }
}
