import Glibc

/// A failed system call: the call's name and the `errno` it left.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value (`EMFILE`, `EADDRINUSE`, ...).
    public var code: Int32
    /// The name of the system call that failed (`accept4`, `bind`, ...).
    public var call: String

    /// Records a failure of `call` with `errno` `code`.
    public init(code: Int32, call: String) {
        self.code = code
        self.call = call
    }

    /// `call: strerror(code) (errno code)`
    public var description: String {
        "\(call): \(String(cString: strerror(code))) (errno \(code))"
    }
}
