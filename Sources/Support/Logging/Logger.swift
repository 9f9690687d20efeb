/// A structured logger: each entry becomes one `key=value` line (logfmt) with a UTC
/// timestamp, the level, the logger's label, the message and sorted metadata.
///
/// Loggers are values: libraries receive one and derive children with extra metadata
/// (`logger.with("request.id", id)`); they never create their own sink. Metadata keys
/// are dotted and stable (`request.id`, `household.id`).
public struct Logger: Sendable {
    /// The subsystem this logger speaks for, e.g. `http` or `store`.
    public var label: String
    /// Entries below this level are dropped without formatting.
    public var level: LogLevel
    /// Key/value pairs added to every entry of this logger.
    public var metadata: [String: String]
    /// Where formatted lines go.
    public let sink: any LogSink

    /// Creates a logger writing to `sink`.
    public init(label: String, level: LogLevel = .info, metadata: [String: String] = [:], sink: any LogSink) {
        self.label = label
        self.level = level
        self.metadata = metadata
        self.sink = sink
    }

    /// A logger that drops everything; for tests and tools that do not care.
    public static let disabled = Logger(label: "disabled", level: .critical, sink: DiscardingLogSink())

    /// A copy of this logger with one more metadata pair.
    public func with(_ key: String, _ value: String) -> Logger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// A copy of this logger with another label.
    public func labeled(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }

    /// Whether an entry at `level` would be written.
    @inlinable
    public func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    /// Writes an entry at `level` when the logger's level admits it.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        guard isEnabled(level) else { return }
        var fields = metadata
        for (key, value) in extra() { fields[key] = value }
        let line = LogLineFormatter.format(
            timestamp: WallClock.now(), level: level, label: label, message: message(), metadata: fields)
        sink.write(line, urgent: level >= .notice)
    }

    /// Writes a `trace` entry.
    public func trace(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.trace, message(), extra())
    }

    /// Writes a `debug` entry.
    public func debug(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), extra())
    }

    /// Writes an `info` entry.
    public func info(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), extra())
    }

    /// Writes a `notice` entry (flushed at once).
    public func notice(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.notice, message(), extra())
    }

    /// Writes a `warning` entry (flushed at once).
    public func warning(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), extra())
    }

    /// Writes an `error` entry (flushed at once).
    public func error(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), extra())
    }

    /// Writes a `critical` entry (flushed at once).
    public func critical(_ message: @autoclosure () -> String, _ extra: @autoclosure () -> [String: String] = [:]) {
        log(.critical, message(), extra())
    }
}
