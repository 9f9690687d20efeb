/// How important a log line is; lines below a logger's level are dropped before they are formatted.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error, critical

    /// Parses `trace`, `debug`, `info`, `notice`, `warning` (or `warn`), `error` and `critical`, ignoring case.
    public init?(name: String) {
        switch name.lowercased() {
        case "trace": self = .trace
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning", "warn": self = .warning
        case "error": self = .error
        case "critical": self = .critical
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
