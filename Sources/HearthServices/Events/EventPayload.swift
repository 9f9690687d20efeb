import FoundationEssentials

/// The data an event carries: always its JSON text (what the change log stores and what
/// another instance would receive), plus, for events recorded in this process, the typed
/// value itself so local subscribers read it without decoding.
public struct EventPayload: Sendable {
    /// The payload as JSON text: keys sorted, dates as ISO 8601 UTC strings with milliseconds.
    public let json: String
    private let value: (any Sendable)?

    /// Encodes `value` to JSON and keeps the value for in-process readers.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded (a non-finite number).
    public init<Value: Encodable & Sendable>(_ value: Value) throws {
        self.json = String(decoding: try Self.makeEncoder().encode(value), as: UTF8.self)
        self.value = value
    }

    /// A payload known only as JSON text, as read back from the change log.
    public init(json: String) {
        self.json = json
        self.value = nil
    }

    /// The payload as `Value`: the recorded value itself when it has that type, otherwise
    /// decoded from ``json``.
    ///
    /// - Throws: `DecodingError` when the JSON does not decode as `Value`.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let value = value as? Value {
            return value
        }
        return try Self.makeDecoder().decode(Value.self, from: Data(json.utf8))
    }

    /// ISO 8601 UTC with milliseconds, `2025-03-01T08:30:00.250Z`: the precision the
    /// database keeps. Parsing also accepts no fraction and numeric offsets.
    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    // Fresh coders per call: they are cheap next to the database write that records an
    // event, and a shared instance would be mutable state to reason about.
    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(dateStyle))
        }
        return encoder
    }

    private static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                return try dateStyle.parse(text)
            } catch {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date-time"
                )
            }
        }
        return decoder
    }
}
