import Testing
@testable import GraphQL

struct ResolvableCastTests {
    /// Fits the existential's inline buffer.
    struct Small: FieldResolvable {
        let name: String
        func fieldValue(named field: String) -> Any? { field == "name" ? name : nil }
    }

    /// Too large for the inline buffer: the container holds a box.
    struct Large: FieldResolvable {
        let a: String, b: String, c: String, d: String
        func fieldValue(named field: String) -> Any? { field == "name" ? a + b + c + d : nil }
    }

    class Base: FieldResolvable {
        let name: String
        init(name: String) { self.name = name }
        func fieldValue(named field: String) -> Any? { field == "name" ? name : nil }
    }

    final class Derived: Base {}

    class Plain {}

    /// Conforms where its superclass does not.
    final class Special: Plain, FieldResolvable {
        func fieldValue(named field: String) -> Any? { field == "name" ? "special" : nil }
    }

    func name(_ value: Any) -> String? {
        ResolvableCast.resolvable(value)?.fieldValue(named: "name") as? String
    }

    @Test func readsEachValueOfAConformingTypeEveryTimeInlineOrBoxed() {
        for round in 0..<3 {
            #expect(name(Small(name: "small \(round)")) == "small \(round)")
            #expect(name(Large(a: "l", b: "a", c: "r", d: "\(round)")) == "lar\(round)")
            #expect(name(Base(name: "base \(round)")) == "base \(round)")
            #expect(name(Derived(name: "derived \(round)") as Base) == "derived \(round)")
            #expect(name(Derived(name: "derived \(round)")) == "derived \(round)")
        }
    }

    @Test func castsAfreshWhatTheContainerDoesNotHoldExactly() {
        for _ in 0..<3 {
            // A subclass that conforms, held as its superclass, which does not.
            #expect(name(Special() as Plain) == "special")
            #expect(ResolvableCast.resolvable(Plain()) == nil)
            // Optionals: the cast unwraps them.
            #expect(name(Optional(Small(name: "wrapped")) as Any) == "wrapped")
            #expect(ResolvableCast.resolvable(Optional<Small>.none as Any) == nil)
            #expect(ResolvableCast.resolvable(42) == nil)
            #expect(ResolvableCast.resolvable(["name": "dictionary"]) == nil)
        }
    }

    @Test func keepsWhatItHoldsAliveExactlyAsLongAsTheExistential() {
        weak var released: Base?
        do {
            let object = Base(name: "kept")
            released = object
            var existentials: [any FieldResolvable] = []
            for _ in 0..<4 {
                existentials += [ResolvableCast.resolvable(object)].compactMap { $0 }
            }
            #expect(existentials.count == 4)
            #expect(existentials.allSatisfy { $0.fieldValue(named: "name") as? String == "kept" })
        }
        #expect(released == nil)
    }
}
