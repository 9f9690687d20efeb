import GraphQL
import Testing
@testable import HearthApp

struct CompletionEngineTests {
    static let schema = try! buildSchema(sdl: """
        type Query {
          serverInfo: ServerInfo!
          search(term: String!, kind: Kind, first: Int = 10, exact: Boolean): [Result!]!
          node(id: ID!): Node
        }
        type Mutation { rename(name: String!): ServerInfo }
        type ServerInfo { version: String! startedAt: String! vendor: String }
        interface Node { id: ID! }
        type Chore implements Node { id: ID! title: String }
        union Result = Chore | ServerInfo
        enum Kind { CHORE INFO }
        """)

    private func complete(_ text: String) -> [String] {
        CompletionEngine(schema: Self.schema).complete(text).candidates
    }

    @Test func completesFieldsOfTheTypeOfTheEnclosingSelectionSet() {
        #expect(complete("{ serverInfo { ve") == ["version", "vendor"])
        #expect(complete("{ serverInfo { ver") == ["version"])
        #expect(complete("query Q { se") == ["serverInfo", "search"])
        #expect(complete("{ serverInfo { version } n") == ["node"])
        #expect(complete("mutation { re") == ["rename"])
    }

    @Test func followsAliasesArgumentsAndFragments() {
        #expect(complete("{ info: serverInfo { st") == ["startedAt"])
        #expect(complete("{ node(id: \"1\") { i") == ["id"])
        #expect(complete("{ node(id: 1) { ... on Chore { ti") == ["title"])
        #expect(complete("{ node(id: 1) { ... o") == ["on"])
        #expect(complete("{ node(id: 1) { ... on Ch") == ["Chore"])
        #expect(complete("fragment F on ServerInfo { ve") == ["version", "vendor"])
    }

    @Test func completesArgumentNamesNotYetUsedAndEnumValues() {
        #expect(complete("{ search(") == ["term", "kind", "first", "exact"])
        #expect(complete("{ search(term: \"x\", f") == ["first"])
        #expect(complete("{ search(term: \"x\", ") == ["kind", "first", "exact"])
        #expect(complete("{ search(kind: ") == ["CHORE", "INFO"])
        #expect(complete("{ search(exact: t") == ["true"])
    }

    @Test func completesCommandsAndKeywordsAtTheTopLevel() {
        #expect(complete(":de") == [":describe"])
        #expect(complete("qu") == ["query"])
        #expect(complete("").contains(":help"))
        #expect(complete(":describe Serv") == ["ServerInfo"])
        #expect(complete(":describe ServerInfo.st") == ["startedAt"])
    }

    @Test func offersNothingInsideStringsOrForUnknownFields() {
        #expect(complete("{ search(term: \"ser").isEmpty)
        #expect(complete("{ nope { ").isEmpty)
    }

    @Test func theCommonPrefixIsWhatEveryCandidateShares() {
        #expect(Completion(replacing: 1, candidates: ["version", "vendor"]).commonPrefix == "ve")
    }

    @Test func aDocumentNeedsContinuationWhileBracesAreOpen() {
        #expect(PartialDocumentScanner.needsContinuation("{ serverInfo {"))
        #expect(PartialDocumentScanner.needsContinuation("{ a(x: \"}\""))
        #expect(!PartialDocumentScanner.needsContinuation("{ a # {\n}"))
        #expect(!PartialDocumentScanner.needsContinuation("{ serverInfo { version } }"))
    }
}

struct ExploreSessionTests {
    @Test func collectsLinesUntilTheDocumentIsCompleteThenRunsIt() {
        var sent: [String] = []
        var session = ExploreSession(schema: CompletionEngineTests.schema) { document in
            sent.append(document)
            return "{\"data\":{}}\n"
        }
        #expect(session.submit("{ serverInfo {") == .needsMore)
        #expect(session.prompt == "   ...> ")
        #expect(session.complete("ve").candidates == ["version", "vendor"])
        #expect(session.submit("version } }") == .output("{\"data\":{}}\n"))
        #expect(sent == ["{ serverInfo {\nversion } }"])
        #expect(session.prompt == "hearth> ")
        #expect(session.submit(":quit") == .quit)
    }

    @Test func describesTypesAndFieldsWithArgumentsAndDefaults() {
        let session = ExploreSession(schema: CompletionEngineTests.schema) { _ in "" }
        #expect(session.describe("ServerInfo").hasPrefix("type ServerInfo {\n  version: String!"))
        let field = session.describe("Query.search")
        #expect(field.contains("Query.search: [Result!]!"))
        #expect(field.contains("  first: Int = 10"))
        #expect(session.describe("Result").contains("Possible types: Chore, ServerInfo"))
        #expect(session.describe("Nope") == "no type named Nope\n")
    }
}
