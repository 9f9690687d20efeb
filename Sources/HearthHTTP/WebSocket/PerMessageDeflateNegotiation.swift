/// What permessage-deflate negotiation settled on for one connection (RFC 7692 §7.1).
struct PerMessageDeflateParameters: Sendable, Equatable {
    /// The server resets its compressor after every message.
    var serverNoContextTakeover: Bool
    /// The client resets its compressor after every message, so we may reset our decompressor too.
    var clientNoContextTakeover: Bool
    /// The window the server compresses with.
    var serverMaxWindowBits: Int
    /// The window the client was told to stay within, nil when it did not ask for a limit (15 then).
    var clientMaxWindowBits: Int?

    /// The `Sec-WebSocket-Extensions` response value.
    var responseValue: String {
        var value = "permessage-deflate"
        if serverNoContextTakeover { value += "; server_no_context_takeover" }
        if clientNoContextTakeover { value += "; client_no_context_takeover" }
        if serverMaxWindowBits < 15 { value += "; server_max_window_bits=\(serverMaxWindowBits)" }
        if let clientMaxWindowBits { value += "; client_max_window_bits=\(clientMaxWindowBits)" }
        return value
    }
}

/// Chooses permessage-deflate parameters from a client's `Sec-WebSocket-Extensions` offers.
enum PerMessageDeflateNegotiation {
    /// The first acceptable permessage-deflate offer, adjusted to the configuration, or nil to decline.
    /// Offers with unknown or duplicated parameters or invalid values are skipped (RFC 7692 §5.1), as are
    /// offers requiring a server window of 8 bits, which zlib cannot honour; other extensions are ignored.
    static func negotiate(
        offers headerValues: [String], configuration: WebSocketConfiguration.Compression
    ) -> PerMessageDeflateParameters? {
        for offer in extensionOffers(headerValues) where offer.name == "permessage-deflate" {
            if let parameters = accept(offer.parameters, configuration: configuration) { return parameters }
        }
        return nil
    }

    private static func accept(
        _ parameters: [(name: String, value: String?)], configuration: WebSocketConfiguration.Compression
    ) -> PerMessageDeflateParameters? {
        var seen = Set<String>()
        var serverNoContextTakeover = !configuration.serverContextTakeover
        var clientNoContextTakeover = !configuration.clientContextTakeover
        var serverWindow = min(max(configuration.serverMaxWindowBits, 9), 15)
        var clientWindow: Int?
        for (name, value) in parameters {
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "server_no_context_takeover":
                guard value == nil else { return nil }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard value == nil else { return nil }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                guard let bits = value.flatMap(windowBits), bits >= 9 else { return nil }
                serverWindow = min(serverWindow, bits)
            case "client_max_window_bits":
                let limit = min(max(configuration.clientMaxWindowBits, 8), 15)
                if let value {
                    guard let bits = windowBits(value) else { return nil }
                    clientWindow = min(limit, bits)
                } else {
                    clientWindow = limit
                }
            default:
                return nil
            }
        }
        return PerMessageDeflateParameters(
            serverNoContextTakeover: serverNoContextTakeover, clientNoContextTakeover: clientNoContextTakeover,
            serverMaxWindowBits: serverWindow, clientMaxWindowBits: clientWindow)
    }

    /// 8–15 written as digits without a leading zero (RFC 7692 §7.1.2.1), else nil.
    private static func windowBits(_ value: String) -> Int? {
        guard let first = value.utf8.first, first != UInt8(ascii: "0"), let bits = Int(value), (8...15).contains(bits)
        else { return nil }
        return bits
    }

    /// Parses `ext; param; param=value, ext2` lists (RFC 6455 §9.1), unquoting quoted values; names are lowercased.
    static func extensionOffers(_ headerValues: [String]) -> [(name: String, parameters: [(name: String, value: String?)])] {
        var offers: [(name: String, parameters: [(name: String, value: String?)])] = []
        for headerValue in headerValues {
            for element in splitOutsideQuotes(headerValue, separator: ",") {
                let parts = splitOutsideQuotes(element, separator: ";").map(trim)
                guard let name = parts.first, !name.isEmpty else { continue }
                var parameters: [(name: String, value: String?)] = []
                for part in parts.dropFirst() where !part.isEmpty {
                    if let equals = part.firstIndex(of: "=") {
                        var value = trim(String(part[part.index(after: equals)...]))
                        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                            value = String(value.dropFirst().dropLast())
                        }
                        parameters.append((name: trim(String(part[..<equals])).lowercased(), value: value))
                    } else {
                        parameters.append((name: part.lowercased(), value: nil))
                    }
                }
                offers.append((name: name.lowercased(), parameters: parameters))
            }
        }
        return offers
    }

    private static func splitOutsideQuotes(_ text: String, separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == separator && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }

    private static func trim(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
