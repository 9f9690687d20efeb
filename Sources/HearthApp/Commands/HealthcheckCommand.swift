import Net

/// `hearth healthcheck`: asks a running server's `/readyz` over loopback and exits 0 when it is
/// ready, 1 otherwise: the container image's `HEALTHCHECK`, with no curl in the image.
enum HealthcheckCommand: Command {
    static let name = "healthcheck"
    static let summary = "Exit 0 when the server on this machine answers /readyz with 200, 1 otherwise"
    static let usage = """
    Usage: hearth healthcheck [--host HOST] [--port PORT] [--timeout DURATION]

    Sends GET /readyz to the server 'hearth serve' started with the same --host and --port (or
    HEARTH_HOST and HEARTH_PORT, so a container's environment serves both); a wildcard host
    (0.0.0.0, ::) is asked on its loopback address. Exits 0 for 200, 1 for anything else
    (another status, no answer within --timeout), printing one line saying which.
    """
    static let options: [OptionSpec] = ServeSettings.options.filter { ["--host", "--port"].contains($0.flag) } + [
        .value("--timeout", "DURATION", environment: "HEARTH_HEALTHCHECK_TIMEOUT", default: "5s",
               help: "How long to wait for the answer, connecting included (100 ms to 1 m)."),
    ]

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let port = try options.integer("--port", in: 1...65535) ?? 8080
        let timeout = try options.duration("--timeout", in: .milliseconds(100) ... .seconds(60)) ?? .seconds(5)
        let url: HTTPURL
        do {
            url = try HTTPURL("http://\(loopbackAuthority(host: options.string("--host") ?? "127.0.0.1", port: port))/readyz")
        } catch {
            throw UsageError(message: "invalid --host: \(error)")
        }
        do {
            let response = try HTTPClient(configuration: HTTPClient.Configuration(timeout: timeout)).get(url)
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            print("\(url): \(response.status) \(text)")
            return response.status == 200 ? 0 : 1
        } catch {
            print("\(url): \(error)")
            return 1
        }
    }

    /// `host:port` to connect to, the wildcard addresses replaced by their loopback address and
    /// IPv6 addresses bracketed.
    static func loopbackAuthority(host: String, port: Int) -> String {
        let target = switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "::1"
        default: host
        }
        return (target.contains(":") && !target.hasPrefix("[") ? "[\(target)]" : target) + ":\(port)"
    }
}
