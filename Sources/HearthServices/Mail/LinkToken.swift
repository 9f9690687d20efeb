/// An emailed link's token as ``LinkTokens`` made it: the id its row stores and the text that
/// goes into the link (`?token=…`).
public struct LinkToken: Sendable, Hashable {
    /// What it opens.
    public let kind: LinkTokens.Kind
    /// The part stored in the database: 16 random bytes, useless without the link key.
    public let id: [UInt8]
    /// The secret the link carries. Never stored when mail goes out by SMTP.
    public let value: String
}
