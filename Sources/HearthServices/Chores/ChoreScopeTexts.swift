import Synchronization

/// The statement texts of ``ChoreScope``, each rewritten once per kind of owner: `{scope}` and
/// `{scope_ids}` turned into the household's or the owner's marker. A list reads a dozen
/// statements, and rewriting each with `String.replacing` on every call cost more than running
/// some of them (tools/bench/chores/views.py). Texts built from input sizes (`IN (?, ?)` lists)
/// vary, so at most ``capacity`` are kept; others are rewritten at each call, only slower.
final class ChoreScopeTexts: Sendable {
    /// The tokens a chore statement carries, and what they become.
    private let replacements: [(token: [UInt8], text: [UInt8])]
    /// How many rewritten texts are kept.
    let capacity: Int
    private let rewritten = Mutex<[String: String]>([:])

    /// The household's texts (`household_id = {household}`).
    static let household = ChoreScopeTexts(scope: "household_id = {household}", ids: "{household}, NULL")
    /// The personal chores' texts (`user_id = {owner}`).
    static let personal = ChoreScopeTexts(scope: "user_id = {owner}", ids: "NULL, {owner}")

    /// Texts whose `{scope}` becomes `scope` and `{scope_ids}` becomes `ids`.
    init(scope: String, ids: String, capacity: Int = 512) {
        // Neither token is a prefix of the other, so their order does not matter.
        replacements = [(Array("{scope_ids}".utf8), Array(ids.utf8)), (Array("{scope}".utf8), Array(scope.utf8))]
        self.capacity = capacity
    }

    /// `sql` with the tokens replaced.
    func text(for sql: String) -> String {
        if let known = rewritten.withLock({ $0[sql] }) { return known }
        let text = rewrite(sql)
        rewritten.withLock { cache in
            if cache.count < capacity { cache[sql] = text }
        }
        return text
    }

    /// One pass over the bytes of `sql`, copying it with every token replaced.
    private func rewrite(_ sql: String) -> String {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 32)
        var index = 0
        scan: while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{") {
                for (token, text) in replacements
                where bytes.count - index >= token.count && bytes[index..<(index + token.count)].elementsEqual(token) {
                    output += text
                    index += token.count
                    continue scan
                }
            }
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// How many rewritten texts are kept (for tests of the bound).
    var count: Int { rewritten.withLock { $0.count } }
}
