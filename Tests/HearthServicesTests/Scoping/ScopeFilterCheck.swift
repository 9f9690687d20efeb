/// Finds the SQL statements of a Swift source file that read or write a scoped table without the
/// marker of a scope that filters it (docs/architecture.md, "Household scoping is structural").
///
/// A statement runs under a scope exactly when it carries the scope's marker (`{household}`,
/// `{owner}`): `ScopedDatabase` refuses a statement without its marker, and the bare connection
/// fails on one with it, since the marker is not SQL. So a statement of a scoped table is
/// filtered when it carries a marker that table accepts:
///
/// - a table with `household_id`, and `households` itself (whose `id` is the household), accepts
///   `{household}`; it accepts `{owner}` when it also has `user_id` (a membership, the active
///   household) or when the statement reaches it through the owner's memberships (it reads
///   `members` with `user_id = {owner}`: the viewer's households, as `nodes` and the household
///   switcher do);
/// - a table with `user_id` and no `household_id` (sessions, tokens, replays) accepts `{owner}`;
/// - a table with both accepts the tokens of `ChoreScope` (`{scope}`, `{scope_ids}`), which stand
///   for `{household}` or `{owner}`, whichever owner its access grants (chores, tags and their rows
///   belong to a household or to one user).
///
/// Like ``SQLDialectCheck`` it reads string literals one at a time (``SwiftStringLiterals``): a
/// statement is a literal that starts like one, its tables are the names after `FROM`, `JOIN`,
/// `INTO` and `UPDATE`, and a table named by an interpolation is reported as
/// ``interpolatedTable``, since the check cannot tell which it is.
struct ScopeFilterCheck {
    /// A scope's marker, as scoped SQL writes it.
    enum Marker: String, CaseIterable, Sendable {
        case household = "{household}"
        case owner = "{owner}"
        /// `ChoreScope`'s filter `{scope}`, or its insert values `{scope_ids}`.
        case householdOrOwner = "{scope}"

        /// Whether `text` carries the marker.
        func isCarried(by text: String) -> Bool {
            text.contains(rawValue) || (self == .householdOrOwner && text.contains("{scope_ids}"))
        }
    }

    /// A statement that touches a scoped table without a marker that filters it.
    struct Finding: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        /// The function the statement is written in, as Swift names it (`find(token:links:in:)`).
        var function: String
        /// The table, or ``ScopeFilterCheck/interpolatedTable``.
        var table: String

        var description: String { "\(file):\(line): \(function): \(table)" }
    }

    /// What a finding names when the statement's table is an interpolation.
    static let interpolatedTable = "a table named by interpolation"

    /// The scoped tables and the markers each accepts.
    let tables: [String: Set<Marker>]

    private let statementStart = try! Regex(SQLDialectCheck.statementPattern)
    private let tableName = try! Regex(#"\b(?:FROM|JOIN|INTO|UPDATE)\s+([A-Za-z_][A-Za-z0-9_]*)"#).ignoresCase().wordBoundaryKind(.simple)
    private let interpolatedName: Regex<AnyRegexOutput>
    // Simple word boundaries: Unicode's join `m.user_id` into one word.
    private let ownMemberships = try! Regex(#"\buser_id\s*=\s*\{owner\}"#).wordBoundaryKind(.simple)

    /// A check of the scoped tables `tables` (``scopedTables(columns:)``).
    init(tables: [String: Set<Marker>]) {
        self.tables = tables
        let escaped = SwiftStringLiterals.interpolation.map { $0.isASCII && $0.isPunctuation ? "\\" + String($0) : String($0) }.joined()
        interpolatedName = try! Regex(#"\b(?:FROM|JOIN|INTO|UPDATE)\s+"# + escaped).ignoresCase()
    }

    /// The scoped tables of a schema whose tables have the columns `columns`, each with the
    /// markers that filter it (see the type's notes).
    static func scopedTables(columns: [String: Set<String>]) -> [String: Set<Marker>] {
        var scoped: [String: Set<Marker>] = ["households": [.household]]
        for (table, names) in columns {
            if names.contains("household_id") {
                scoped[table] = names.contains("user_id") ? [.household, .owner, .householdOrOwner] : [.household]
            } else if names.contains("user_id") {
                scoped[table] = [.owner]
            }
        }
        return scoped
    }

    /// The statements of `source` that touch a scoped table without a marker that filters it,
    /// one finding per table, for `file`.
    func findings(in source: String, file: String) -> [Finding] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        return SwiftStringLiterals(source).literals.flatMap { literal -> [Finding] in
            guard literal.text.firstMatch(of: statementStart) != nil else { return [] }
            let unfiltered = unfilteredTables(of: literal)
            guard !unfiltered.isEmpty else { return [] }
            let function = Self.enclosingFunction(of: literal.line, in: lines)
            return unfiltered.map { Finding(file: file, line: literal.line, function: function, table: $0) }
        }
    }

    /// The tables `literal` touches that none of its markers filters, in the order it names them.
    private func unfilteredTables(of literal: SwiftStringLiterals.Literal) -> [String] {
        var carried = Set(Marker.allCases.filter { $0.isCarried(by: literal.text) })
        let named = literal.text.matches(of: tableName).compactMap { match in match.output[1].substring.map(String.init) }
        if carried.contains(.owner), named.contains("members"), literal.text.firstMatch(of: ownMemberships) != nil {
            // Reached through the owner's own memberships: only their households' rows.
            carried.insert(.household)
        }
        var unfiltered: [String] = []
        for table in named where !unfiltered.contains(table) {
            if let accepted = tables[table], accepted.isDisjoint(with: carried) { unfiltered.append(table) }
        }
        if literal.template.firstMatch(of: interpolatedName) != nil { unfiltered.append(Self.interpolatedTable) }
        return unfiltered
    }

    /// The function the code on `line` (counted from 1) of `lines` is written in: the nearest
    /// `func` or `init` declared above it, named as Swift names it (`find(id:_:)`); "top level"
    /// when there is none. (A statement in a computed property counts as the function above it.)
    static func enclosingFunction(of line: Int, in lines: [Substring]) -> String {
        let declaration = try! Regex(
            #"^\s*(?:(?:@\w+|public|private|fileprivate|internal|static|class|mutating|nonisolated|override|final|convenience|required)\s+)*(?:func\s+([A-Za-z_]\w*)|(init)[?!]?)\s*(?:<[^(]*>)?\("#)
        for index in stride(from: min(line, lines.count) - 1, through: 0, by: -1) {
            guard let match = lines[index].firstMatch(of: declaration) else { continue }
            let name = (match.output[1].substring ?? match.output[2].substring).map(String.init) ?? "init"
            let rest = String(lines[index][match.range.upperBound...]) + "\n" + lines[(index + 1)..<min(index + 30, lines.count)].joined(separator: "\n")
            return name + "(" + argumentLabels(rest).map { $0 + ":" }.joined() + ")"
        }
        return "top level"
    }

    /// The argument labels of the parameter list that `text` starts inside (just after its
    /// opening parenthesis): each parameter's first word, `_` included.
    private static func argumentLabels(_ text: String) -> [String] {
        var parameters: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(", "[", "{":
                depth += 1
            case ")", "]", "}":
                if depth == 0 {
                    parameters.append(current)
                    return parameters.compactMap(label)
                }
                depth -= 1
            case "," where depth == 0:
                parameters.append(current)
                current = ""
                continue
            default:
                break
            }
            current.append(character)
        }
        return parameters.compactMap(label)
    }

    private static func label(_ parameter: String) -> String? {
        guard let colon = parameter.firstIndex(of: ":") else { return nil }
        return parameter[..<colon].split(whereSeparator: \.isWhitespace).first.map(String.init)
    }
}
