import Dispatch
import FoundationEssentials
import Support

/// `hearth serve`: runs the server until SIGINT or SIGTERM.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the server (HTTP on 127.0.0.1:8080 by default)"
    static let usage = """
    Usage: hearth serve [OPTIONS]

    Opens (and migrates) the SQLite database, then serves Hearth over HTTP. Prints exactly one
    line 'listening on http://HOST:PORT' to standard output once it accepts connections; logs
    go to standard error as logfmt lines. On SIGINT or SIGTERM it stops accepting, lets
    in-flight requests finish within --shutdown-grace, checkpoints the database and exits 0,
    at most one second after the grace period, whatever still runs.
    Every option can also be set by its environment variable; flags win.
    """
    static let options: [OptionSpec] = ServeSettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let settings = try ServeSettings(options)
        let sink = FileDescriptorLogSink()
        defer { sink.stop() }
        let logger = Logger(label: "hearth", level: settings.logLevel, sink: sink)
        let application: Application
        do {
            application = try Application(settings: settings, logger: logger)
        } catch {
            logger.critical("cannot start", ["error": "\(error)", "database": settings.database.displayName])
            throw error
        }
        let address = try application.start()
        logger.notice("started", [
            "version": BuildInfo.version, "address": "\(address)", "database": settings.database.displayName,
            "loops": String(settings.http.eventLoopCount),
        ])
        // Written unbuffered: scripts and tests wait for this exact line.
        StandardStreams.writeOutput("listening on http://\(address)\n")
        let signal = ShutdownSignal.wait()
        let (seconds, attoseconds) = (settings.shutdownGracePeriod + Application.shutdownAllowance).components
        let deadline = DispatchTime.now() + .seconds(Int(seconds)) + .nanoseconds(Int(attoseconds / 1_000_000_000))
        logger.notice("shutting down", ["signal": signal.description, "grace": "\(settings.shutdownGracePeriod)"])
        application.beginShutdown()
        if application.finishShutdown(deadline: deadline) { logger.notice("stopped") }
        return 0
    }
}
