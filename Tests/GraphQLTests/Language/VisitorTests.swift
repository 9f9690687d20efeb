import Testing

@testable import GraphQL

/// Records `enter`/`leave` events as short strings.
private struct Recorder: ASTVisitor {
    var events: [String] = []
    var skipFieldsNamed: String?
    var stopAtFieldNamed: String?

    static func label(_ node: ASTNode) -> String {
        switch node {
        case .document: "document"
        case .operationDefinition(let node): "operation \(node.name?.value ?? "")"
        case .variableDefinition(let node): "variable \(node.variable.name.value)"
        case .selectionSet: "selectionSet"
        case .field(let node): "field \(node.responseKey)"
        case .argument(let node): "argument \(node.name.value)"
        case .fragmentSpread(let node): "spread \(node.name.value)"
        case .inlineFragment: "inline"
        case .fragmentDefinition(let node): "fragment \(node.name.value)"
        case .value(let node): "value \(Printer.print(node))"
        case .objectField(let node): "objectField \(node.name.value)"
        case .directive(let node): "directive \(node.name.value)"
        case .type(let node): "type \(node)"
        case .namedType(let node): "named \(node.value)"
        case .schemaDefinition: "schema"
        case .schemaExtension: "extend schema"
        case .operationTypeDefinition(let node): "root \(node.operation.rawValue)"
        case .typeDefinition(let node): "typeDefinition \(node.name.value)"
        case .typeExtension(let node): "typeExtension \(node.name.value)"
        case .fieldDefinition(let node): "fieldDefinition \(node.name.value)"
        case .inputValueDefinition(let node): "inputValue \(node.name.value)"
        case .enumValueDefinition(let node): "enumValue \(node.name.value)"
        case .directiveDefinition(let node): "directiveDefinition \(node.name.value)"
        }
    }

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        events.append("enter \(Recorder.label(node))")
        if case .field(let field) = node {
            if field.name.value == skipFieldsNamed { return .skipChildren }
            if field.name.value == stopAtFieldNamed { return .stop }
        }
        return .continue
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        events.append("leave \(Recorder.label(node))")
        return .continue
    }
}

/// Collects each node's parent label.
private struct ParentRecorder: ASTVisitor {
    var parents: [String: String] = [:]

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        parents[Recorder.label(node)] = parent.map(Recorder.label) ?? "none"
        return .continue
    }
}

struct VisitorTests {
    @Test func entersAndLeavesEveryNodeInSourceOrder() throws {
        let document = try Parser.parse("query Q($v: [Int!] = [1]) { a(x: {y: $v}) @d { ...F } ... on T { b } } fragment F on T { c }")
        var recorder = Recorder()
        document.walk(&recorder)
        #expect(recorder.events == [
            "enter document",
            "enter operation Q",
            "enter variable v", "enter type [Int!]", "enter type Int!", "enter type Int", "enter named Int",
            "leave named Int", "leave type Int", "leave type Int!", "leave type [Int!]",
            "enter value [1]", "enter value 1", "leave value 1", "leave value [1]", "leave variable v",
            "enter selectionSet",
            "enter field a",
            "enter argument x", "enter value {y: $v}", "enter objectField y", "enter value $v", "leave value $v",
            "leave objectField y", "leave value {y: $v}", "leave argument x",
            "enter directive d", "leave directive d",
            "enter selectionSet", "enter spread F", "leave spread F", "leave selectionSet",
            "leave field a",
            "enter inline", "enter named T", "leave named T",
            "enter selectionSet", "enter field b", "leave field b", "leave selectionSet", "leave inline",
            "leave selectionSet",
            "leave operation Q",
            "enter fragment F", "enter named T", "leave named T",
            "enter selectionSet", "enter field c", "leave field c", "leave selectionSet", "leave fragment F",
            "leave document",
        ])
    }

    @Test func skipsChildrenWithoutLeaving() throws {
        let document = try Parser.parse("{ a { b } c }")
        var recorder = Recorder(skipFieldsNamed: "a")
        document.walk(&recorder)
        #expect(!recorder.events.contains("enter field b"))
        #expect(!recorder.events.contains("leave field a"))
        #expect(recorder.events.contains("enter field c"))
    }

    @Test func stopsTheWholeWalk() throws {
        let document = try Parser.parse("{ a { b } c }")
        var recorder = Recorder(stopAtFieldNamed: "b")
        document.walk(&recorder)
        #expect(recorder.events.last == "enter field b")
        #expect(!recorder.events.contains("enter field c"))
    }

    @Test func passesParents() throws {
        let document = try Parser.parse("{ a(x: 1) }")
        var recorder = ParentRecorder()
        document.walk(&recorder)
        #expect(recorder.parents["document"] == "none")
        #expect(recorder.parents["field a"] == "selectionSet")
        #expect(recorder.parents["value 1"] == "argument x")
        var fromField = ParentRecorder()
        guard case .field(let field) = document.operations[0].selectionSet.selections[0] else { return }
        ASTNode.field(field).walk(&fromField)
        #expect(fromField.parents["field a"] == "none")
    }

    @Test func visitsEveryTypeSystemNode() throws {
        var recorder = Recorder()
        try Parser.parse(Fixtures.kitchenSinkSchema).walk(&recorder)
        let entered = Set(recorder.events.filter { $0.hasPrefix("enter ") })
        for expected in [
            "enter schema", "enter root query", "enter named QueryType", "enter typeDefinition Foo",
            "enter named Bar", "enter fieldDefinition two", "enter inputValue argument", "enter type InputType!",
            "enter typeExtension Foo", "enter named Story", "enter enumValue DESKTOP", "enter directive onEnumValue",
            "enter directiveDefinition skip", "enter extend schema", "enter value \"string\"",
            "enter typeDefinition InputType", "enter inputValue key",
        ] {
            #expect(entered.contains(expected), "\(expected)")
        }
        #expect(recorder.events.filter { $0.hasPrefix("enter") }.count == recorder.events.filter { $0.hasPrefix("leave") }.count)
    }
}
