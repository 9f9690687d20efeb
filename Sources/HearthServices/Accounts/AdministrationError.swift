/// Why an administration command could not do what it was asked.
public struct AdministrationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the administrator.
    public var message: String
    public var description: String { message }
}
