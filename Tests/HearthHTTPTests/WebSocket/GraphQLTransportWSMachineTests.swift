import HearthHTTP
import Testing

@Suite struct GraphQLTransportWSMachineTests {
    private typealias Action = GraphQLTransportWSMachine.Action

    private static func text(_ json: String) -> WebSocketMessage {
        WebSocketMessage(kind: .text, payload: Array(json.utf8))
    }

    private static let subscribe1 = text(#"{"type":"subscribe","id":"1","payload":{"query":"subscription { tick }"}}"#)

    private static func closeCode(_ actions: [Action]) -> UInt16? {
        for case .close(let code, _) in actions { return code.rawValue }
        return nil
    }

    private static func acknowledged() -> GraphQLTransportWSMachine {
        var machine = GraphQLTransportWSMachine(now: 0)
        _ = machine.receive(text(#"{"type":"connection_init","payload":{"token":"t"}}"#))
        _ = machine.acknowledge()
        return machine
    }

    @Test func initialisesAcknowledgesAndRunsAnOperation() {
        var machine = GraphQLTransportWSMachine(now: 0)
        #expect(machine.receive(Self.text(#"{"type":"connection_init","payload":{"token":"t"}}"#))
            == [.authorize(payload: Array(#"{"token":"t"}"#.utf8))])
        #expect(machine.acknowledge() == [.send(.connectionAck(payload: nil))])
        #expect(machine.receive(Self.subscribe1)
            == [.startOperation(id: "1", payload: Array(#"{"query":"subscription { tick }"}"#.utf8))])
        #expect(machine.next(id: "1", payload: Array(#"{"data":{"tick":1}}"#.utf8))
            == [.send(.next(id: "1", payload: Array(#"{"data":{"tick":1}}"#.utf8)))])
        #expect(machine.complete(id: "1") == [.send(.complete(id: "1"))])
        #expect(machine.runningOperations.isEmpty)
    }

    @Test func aClientCompleteStopsTheOperationAndSilencesItsId() {
        var machine = Self.acknowledged()
        _ = machine.receive(Self.subscribe1)
        #expect(machine.receive(Self.text(#"{"type":"complete","id":"1"}"#)) == [.stopOperation(id: "1")])
        #expect(machine.next(id: "1", payload: Array("{}".utf8)).isEmpty)
        #expect(machine.complete(id: "1").isEmpty)
        #expect(machine.receive(Self.text(#"{"type":"complete","id":"1"}"#)).isEmpty)
        // The id may be used again once completed.
        #expect(machine.receive(Self.subscribe1).count == 1)
    }

    @Test func startsAnAutomaticPersistedQuerySentByHashAlone() {
        for payload in [
            #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}}"#,
            #"{"query":null,"variables":{"n":1},"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}}"#,
        ] {
            var machine = Self.acknowledged()
            #expect(machine.receive(Self.text(#"{"type":"subscribe","id":"1","payload":\#(payload)}"#))
                == [.startOperation(id: "1", payload: Array(payload.utf8))])
        }
    }

    @Test func closesWith4400ForInvalidMessages() {
        for json in [
            "not json", "[]", #"{"id":"1"}"#, #"{"type":"unknown"}"#, #"{"type":"subscribe","id":"1"}"#,
            #"{"type":"subscribe","id":"","payload":{"query":"{a}"}}"#, #"{"type":"subscribe","id":1,"payload":{"query":"{a}"}}"#,
            #"{"type":"subscribe","id":"1","payload":{"variables":{}}}"#, #"{"type":"connection_init","payload":[1]}"#,
            #"{"type":"subscribe","id":"1","payload":{"query":null}}"#,
            #"{"type":"subscribe","id":"1","payload":{"extensions":{}}}"#,
            #"{"type":"subscribe","id":"1","payload":{"extensions":{"persistedQuery":"ab"}}}"#,
            #"{"type":"subscribe","id":"1","payload":{"query":1,"extensions":{"persistedQuery":{}}}}"#,
            #"{"type":"next","id":"1","payload":{}}"#, #"{"type":"connection_init"} trailing"#,
        ] {
            var machine = Self.acknowledged()
            #expect(Self.closeCode(machine.receive(Self.text(json))) == 4400, "\(json)")
        }
        var binary = GraphQLTransportWSMachine(now: 0)
        #expect(Self.closeCode(binary.receive(WebSocketMessage(kind: .binary, payload: [1]))) == 4400)
    }

    @Test func closesWith4401ForASubscribeBeforeTheAck() {
        var machine = GraphQLTransportWSMachine(now: 0)
        #expect(Self.closeCode(machine.receive(Self.subscribe1)) == 4401)
        var authorizing = GraphQLTransportWSMachine(now: 0)
        _ = authorizing.receive(Self.text(#"{"type":"connection_init"}"#))
        #expect(Self.closeCode(authorizing.receive(Self.subscribe1)) == 4401)
    }

    @Test func closesWith4403WhenTheApplicationRejectsTheInit() {
        var machine = GraphQLTransportWSMachine(now: 0)
        _ = machine.receive(Self.text(#"{"type":"connection_init","payload":{"token":"bad"}}"#))
        #expect(machine.reject() == [.close(code: WebSocketCloseCode(4403), reason: "Forbidden")])
    }

    @Test func closesWith4408WhenNoInitArrivesInTime() {
        var configuration = GraphQLTransportWSMachine.Configuration()
        configuration.connectionInitTimeout = .milliseconds(100)
        var machine = GraphQLTransportWSMachine(configuration: configuration, now: 1_000)
        #expect(machine.tick(now: 100_000_999).isEmpty)
        #expect(machine.tick(now: 100_001_000) == [.close(code: WebSocketCloseCode(4408), reason: "Connection initialisation timeout")])
        var initialised = GraphQLTransportWSMachine(configuration: configuration, now: 0)
        _ = initialised.receive(Self.text(#"{"type":"connection_init"}"#))
        #expect(initialised.tick(now: 1_000_000_000).isEmpty)
    }

    @Test func closesWith4409ForADuplicateIdAndStopsRunningOperations() {
        var machine = Self.acknowledged()
        _ = machine.receive(Self.subscribe1)
        #expect(machine.receive(Self.subscribe1)
            == [.stopOperation(id: "1"), .close(code: WebSocketCloseCode(4409), reason: "Subscriber for 1 already exists")])
    }

    @Test func closesWith4429ForASecondInit() {
        var machine = Self.acknowledged()
        #expect(Self.closeCode(machine.receive(Self.text(#"{"type":"connection_init"}"#))) == 4429)
        var authorizing = GraphQLTransportWSMachine(now: 0)
        _ = authorizing.receive(Self.text(#"{"type":"connection_init"}"#))
        #expect(Self.closeCode(authorizing.receive(Self.text(#"{"type":"connection_init"}"#))) == 4429)
    }

    @Test func closesWith4500OnAnInternalFailure() {
        var machine = Self.acknowledged()
        #expect(Self.closeCode(machine.fail()) == 4500)
        #expect(machine.receive(Self.subscribe1).isEmpty)
    }

    @Test func answersPingsAtAnyTimeAndIgnoresPongs() {
        var machine = GraphQLTransportWSMachine(now: 0)
        #expect(machine.receive(Self.text(#"{"type":"ping","payload":{"x":1}}"#)) == [.send(.pong(payload: nil))])
        #expect(machine.receive(Self.text(#"{"type":"pong"}"#)).isEmpty)
    }

    @Test func limitsOperationsPerConnectionWithAnErrorMessage() {
        var configuration = GraphQLTransportWSMachine.Configuration()
        configuration.maxOperations = 1
        var machine = GraphQLTransportWSMachine(configuration: configuration, now: 0)
        _ = machine.receive(Self.text(#"{"type":"connection_init"}"#))
        _ = machine.acknowledge()
        _ = machine.receive(Self.subscribe1)
        let second = machine.receive(Self.text(#"{"type":"subscribe","id":"2","payload":{"query":"{a}"}}"#))
        guard case .send(.error(let id, _))? = second.first else {
            Issue.record("expected an error message, got \(second)")
            return
        }
        #expect(id == "2")
        #expect(machine.runningOperations == ["1"])
    }

    @Test func stopsEveryOperationWhenTheSocketCloses() {
        var machine = Self.acknowledged()
        _ = machine.receive(Self.subscribe1)
        _ = machine.receive(Self.text(#"{"type":"subscribe","id":"2","payload":{"query":"{a}"}}"#))
        #expect(machine.connectionClosed() == [.stopOperation(id: "1"), .stopOperation(id: "2")])
        #expect(machine.next(id: "1", payload: Array("{}".utf8)).isEmpty)
    }

    @Test func encodesMessagesAsJSONThatDecodesBack() throws {
        let messages: [GraphQLTransportWSMessage] = [
            .connectionInit(payload: Array(#"{"a":"b"}"#.utf8)), .connectionAck(payload: nil), .ping(payload: nil),
            .subscribe(id: "q\"1\n", payload: Array(#"{"query":"{ a }","variables":{"x":[1,2.5e3,null,true]}}"#.utf8)),
            .next(id: "1", payload: Array(#"{"data":{"s":"\u00e9\ud83d\ude00"}}"#.utf8)),
            .error(id: "1", payload: Array(#"[{"message":"no"}]"#.utf8)), .complete(id: "1"),
        ]
        for message in messages {
            #expect(try GraphQLTransportWSMessage.decode(message.encoded()) == message)
        }
        #expect(String(decoding: GraphQLTransportWSMessage.complete(id: "7").encoded(), as: UTF8.self) == #"{"type":"complete","id":"7"}"#)
    }

    @Test func acceptsNextOnlyWhileTheOperationRunsOnAnAcknowledgedConnection() {
        var machine = GraphQLTransportWSMachine(now: 0)
        _ = machine.receive(Self.text(#"{"type":"connection_init"}"#))
        #expect(!machine.acceptsNext(id: "1"))
        _ = machine.acknowledge()
        _ = machine.receive(Self.subscribe1)
        #expect(machine.acceptsNext(id: "1"))
        #expect(!machine.acceptsNext(id: "2"))
        _ = machine.receive(Self.text(#"{"type":"complete","id":"1"}"#))
        #expect(!machine.acceptsNext(id: "1"))
        #expect(machine.next(id: "1", payload: Array("{}".utf8)).isEmpty)
    }

    @Test func aSharedNextEncodesExactlyAsTheMessageForEachId() throws {
        let payload = Array(#"{"data":{"serverEvents":{"sequence":"42"}}}"#.utf8)
        let shared = GraphQLTransportWSMessage.SharedNext(payload: payload)
        for id in ["1", "a-much-longer-operation-id", #"quote " and \ backslash"#, "ünïcode"] {
            #expect(shared.encoded(id: id) == GraphQLTransportWSMessage.next(id: id, payload: payload).encoded())
            #expect(try GraphQLTransportWSMessage.decode(shared.encoded(id: id)) == .next(id: id, payload: payload))
        }
    }
}
