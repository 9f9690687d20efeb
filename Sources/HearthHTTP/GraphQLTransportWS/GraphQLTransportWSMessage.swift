import Synchronization

/// One message of the graphql-transport-ws protocol (graphql-ws's PROTOCOL.md). Payloads are raw JSON
/// bytes: HearthHTTP frames them, the GraphQL layer reads and writes their content.
public enum GraphQLTransportWSMessage: Sendable, Equatable {
    /// Client → server: the first message, with an optional payload object (credentials).
    case connectionInit(payload: [UInt8]?)
    /// Server → client: the connection is accepted; optional payload object.
    case connectionAck(payload: [UInt8]?)
    /// Either way: a ping, to be answered with a pong.
    case ping(payload: [UInt8]?)
    /// Either way: the answer to a ping, or a unidirectional heartbeat.
    case pong(payload: [UInt8]?)
    /// Client → server: start operation `id` (`payload` is an object with `query`, `variables`, …; an
    /// Automatic Persisted Query may send `extensions.persistedQuery` instead of `query`, as over HTTP).
    case subscribe(id: String, payload: [UInt8])
    /// Server → client: one execution result of operation `id`.
    case next(id: String, payload: [UInt8])
    /// Server → client: operation `id` failed before execution; `payload` is an array of GraphQL errors.
    case error(id: String, payload: [UInt8])
    /// Either way: operation `id` is finished (client: stop it; server: no more results).
    case complete(id: String)

    /// Why a text message is not a valid client message; its description is the 4400 close reason.
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
    }

    /// Decodes a client message from its JSON text.
    /// - Throws: `DecodingError` for malformed JSON, an unknown or missing `type`, a missing or non-string
    ///   `id` where one is required, or a payload of the wrong shape.
    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> GraphQLTransportWSMessage {
        guard let envelope = JSONEnvelope(bytes) else { throw DecodingError(description: "Message is not a JSON object") }
        guard case .string(let type)? = envelope["type"] else {
            throw DecodingError(description: "Message is missing the 'type' property")
        }
        switch type {
        case "connection_init": return .connectionInit(payload: try optionalObject(envelope, type))
        case "connection_ack": return .connectionAck(payload: try optionalObject(envelope, type))
        case "ping": return .ping(payload: try optionalObject(envelope, type))
        case "pong": return .pong(payload: try optionalObject(envelope, type))
        case "subscribe":
            let id = try identifier(envelope, type)
            guard case .raw(let payload, isObject: true, _)? = envelope["payload"],
                let operation = JSONEnvelope(payload), hasQuery(operation)
            else {
                throw DecodingError(description: "\"subscribe\" message expects the 'payload' property to be an object with a 'query' string"
                    + " or an 'extensions.persistedQuery' object")
            }
            return .subscribe(id: id, payload: payload)
        case "next", "error":
            let id = try identifier(envelope, type)
            guard case .raw(let payload, _, isNull: false)? = envelope["payload"] else {
                throw DecodingError(description: "\"\(type)\" message requires a 'payload' property")
            }
            return type == "next" ? .next(id: id, payload: payload) : .error(id: id, payload: payload)
        case "complete":
            return .complete(id: try identifier(envelope, type))
        default:
            throw DecodingError(description: "Unexpected message type '\(type)'")
        }
    }

    /// Whether a `subscribe` payload names its document: a `query` string, or (with no query or a
    /// null one) an Automatic Persisted Query's `extensions.persistedQuery` object, which the GraphQL
    /// layer resolves as it does over HTTP. graphql-ws requires the string; Apollo's persisted-query
    /// link sends the hash alone first.
    private static func hasQuery(_ operation: JSONEnvelope) -> Bool {
        switch operation["query"] {
        case .string?: return true
        case nil, .raw(_, _, isNull: true)?:
            guard case .raw(let extensions, isObject: true, _)? = operation["extensions"],
                case .raw(_, isObject: true, _)? = JSONEnvelope(extensions)?["persistedQuery"]
            else { return false }
            return true
        default: return false
        }
    }

    private static func identifier(_ envelope: JSONEnvelope, _ type: String) throws(DecodingError) -> String {
        guard case .string(let id)? = envelope["id"], !id.isEmpty else {
            throw DecodingError(description: "\"\(type)\" message requires a non-empty 'id' string")
        }
        return id
    }

    private static func optionalObject(_ envelope: JSONEnvelope, _ type: String) throws(DecodingError) -> [UInt8]? {
        switch envelope["payload"] {
        case nil, .raw(_, _, isNull: true)?: return nil
        case .raw(let payload, isObject: true, _)?: return payload
        default: throw DecodingError(description: "\"\(type)\" message expects the 'payload' property to be an object or missing")
        }
    }

    /// The message's JSON text (payload bytes are written as given; they must be valid JSON).
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        func member(_ name: StaticString, string: String) {
            if output.count > 1 { output.append(0x2C) }
            JSONEnvelope.appendString(name.description, to: &output)
            output.append(0x3A)
            JSONEnvelope.appendString(string, to: &output)
        }
        func member(_ name: StaticString, raw: [UInt8]?) {
            guard let raw else { return }
            if output.count > 1 { output.append(0x2C) }
            JSONEnvelope.appendString(name.description, to: &output)
            output.append(0x3A)
            output.append(contentsOf: raw)
        }
        output.append(UInt8(ascii: "{"))
        switch self {
        case .connectionInit(let payload):
            member("type", string: "connection_init")
            member("payload", raw: payload)
        case .connectionAck(let payload):
            member("type", string: "connection_ack")
            member("payload", raw: payload)
        case .ping(let payload):
            member("type", string: "ping")
            member("payload", raw: payload)
        case .pong(let payload):
            member("type", string: "pong")
            member("payload", raw: payload)
        case .subscribe(let id, let payload):
            member("type", string: "subscribe")
            member("id", string: id)
            member("payload", raw: payload)
        case .next(let id, let payload):
            member("type", string: "next")
            member("id", string: id)
            member("payload", raw: payload)
        case .error(let id, let payload):
            member("type", string: "error")
            member("id", string: id)
            member("payload", raw: payload)
        case .complete(let id):
            member("type", string: "complete")
            member("id", string: id)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }
}

extension GraphQLTransportWSMessage {
    /// One result sent as `next` to many operations (a subscription shared by many connections): the payload
    /// is encoded once, and each operation's message is that encoding completed with its id, byte for byte
    /// what `GraphQLTransportWSMessage.next(id:payload:).encoded()` gives.
    public struct SharedNext: Sendable {
        private static let head = Array(#"{"type":"next","id":"#.utf8)
        /// `,"payload":<payload>}`: everything after the id.
        private let tail: [UInt8]
        /// The frames built so far, shared by every copy of this value.
        private let frames = Frames()

        /// Frames by operation id and whether they carry a compressed variant.
        private final class Frames: Sendable {
            struct Key: Hashable {
                let id: String
                let compressed: Bool
            }

            let built = Mutex<[Key: WebSocketEncodedFrame]>([:])
        }

        /// Encodes the part shared by every operation.
        /// - Parameter payload: The execution result as JSON text (written as given; it must be valid JSON).
        public init(payload: [UInt8]) {
            var tail = Array(#","payload":"#.utf8)
            tail.reserveCapacity(tail.count + payload.count + 1)
            tail.append(contentsOf: payload)
            tail.append(UInt8(ascii: "}"))
            self.tail = tail
        }

        /// The frame of operation `id`'s message for a connection of an endpoint with `compression`, built
        /// (and compressed) by the first call for that id and shared by the later ones: the connections of a
        /// shared subscription mostly use the same operation id, so a fan-out to thousands of them builds
        /// one frame, which each connection sends in the variant it negotiated (``WebSocketEncodedFrame``).
        /// Every call with a `compression` must pass the same one: an endpoint's connections all carry the
        /// endpoint's settings (`WebSocketConnection.compression`).
        public func frame(id: String, compression: WebSocketConfiguration.Compression?) -> WebSocketEncodedFrame {
            // Built under the lock, so two event loops delivering the same event never compress it twice.
            frames.built.withLock { built in
                let key = Frames.Key(id: id, compressed: compression != nil)
                if let frame = built[key] { return frame }
                let frame = WebSocketEncodedFrame.text(utf8: encoded(id: id), compression: compression)
                built[key] = frame
                return frame
            }
        }

        /// The complete message for operation `id`.
        public func encoded(id: String) -> [UInt8] {
            var output: [UInt8] = []
            output.reserveCapacity(Self.head.count + id.utf8.count + 2 + tail.count)
            output.append(contentsOf: Self.head)
            JSONEnvelope.appendString(id, to: &output)
            output.append(contentsOf: tail)
            return output
        }
    }
}
