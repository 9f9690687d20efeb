/// The SQL constructs PostgreSQL does not accept, or accepts with another meaning, that SQLite
/// lets through: what SQL outside the store must not contain (docs/architecture.md, "Portable
/// SQL"). Each construct names the portable form to use instead.
///
/// The check reads string literals one at a time (``SwiftStringLiterals``), so a construct split
/// across literals escapes it; write each statement as one literal (interpolating only column
/// lists, placeholders and names), as the services do.
struct SQLDialectCheck {
    /// One forbidden construct.
    struct Construct {
        /// A short name, as allow-list entries and failures cite it.
        var name: String
        /// What to write instead.
        var instead: String
        /// Whether a literal contains the construct.
        var isPresent: (String) -> Bool
    }

    /// A construct found in a source file.
    struct Finding: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var construct: String

        var description: String { "\(file):\(line): \(construct)" }
    }

    /// Every construct checked, each regular expression compiled once.
    let constructs: [Construct]

    /// How a literal that is an SQL statement starts (other literals are messages, names, keys).
    static let statementPattern = #"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\b"#

    init() {
        let sqlStart = try! Regex(Self.statementPattern)
        func pattern(
            _ name: String, _ expression: String, _ instead: String, caseSensitive: Bool = false, onlyInSQL: Bool = false
        ) -> Construct {
            let compiled = try! Regex(expression)
            let regex = caseSensitive ? compiled : compiled.ignoresCase()
            return Construct(name: name, instead: instead) { text in
                if onlyInSQL, text.firstMatch(of: sqlStart) == nil { return false }
                return text.firstMatch(of: regex) != nil
            }
        }
        let minOrMax = try! Regex(#"\b(min|max)\s*\("#).ignoresCase()
        constructs = [
            pattern("INSERT OR …", #"\bINSERT\s+OR\b"#, "INSERT … ON CONFLICT (…) DO UPDATE / DO NOTHING"),
            pattern("REPLACE INTO", #"\bREPLACE\s+INTO\b"#, "INSERT … ON CONFLICT (…) DO UPDATE"),
            pattern("LIMIT -1", #"\bLIMIT\s+-"#, "a bounded LIMIT, or NOT IN (SELECT … LIMIT ?) for all but the first n"),
            pattern("COLLATE", #"\bCOLLATE\b"#, "a stored normalised key column (e.g. name_key, written by the service)"),
            pattern("sqlite_ name", #"\bsqlite_\w+"#, "nothing outside the store: the schema is the migrations'"),
            pattern("rowid", #"\b(_rowid_|rowid|oid)\b"#, "the table's own key; RETURNING for a generated one"),
            pattern("PRAGMA", #"\bPRAGMA\b"#, "a function of the SQLite store"),
            // A statement of its own, in capitals as the services write SQL: the word in other text
            // ("Vacuum the living room", a preset's title) is none.
            pattern("VACUUM", #"^\s*VACUUM\b"#, "a function of the SQLite store", caseSensitive: true),
            pattern("transaction control", #"^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b"#,
                    "the store's write closures and Database.savepoint", caseSensitive: true),
            pattern("ATTACH DATABASE", #"\b(ATTACH|DETACH)\s+DATABASE\b"#, "nothing: one database per store"),
            pattern(
                "SQLite-only function",
                #"\b(randomblob|zeroblob|datetime|julianday|strftime|unixepoch|date|time|ifnull|iif|group_concat|json_\w+|printf|instr|last_insert_rowid|changes|total_changes|typeof|unhex|likelihood|likely|unlikely)\("#,
                "values computed in Swift and bound (times come from the injected clock), coalesce, CASE, or rows combined in Swift"),
            Construct(
                name: "scalar min/max", instead: "CASE WHEN a < b THEN a ELSE b END (PostgreSQL spells them LEAST and GREATEST)",
                isPresent: { text in text.matches(of: minOrMax).contains { Self.hasSecondArgument(text, after: $0.range.upperBound) } }),
            pattern("numbered placeholder", #"\?\d"#, "plain ? placeholders, the argument repeated"),
            pattern("named placeholder", #"(^|[^\w:]):[A-Za-z_]|(^|[^\w'])[@$][A-Za-z_]"#, "plain ? placeholders", onlyInSQL: true),
            pattern("STRICT table", #"\)\s*STRICT\b"#, "a plain table (column types are the migrations' business)", caseSensitive: true),
            pattern("AUTOINCREMENT", #"\bAUTOINCREMENT\b"#, "a key the service makes (UUIDv7), or the migration's own column type"),
            pattern("GLOB", #"\bGLOB\b"#, "= on a stored normalised key", caseSensitive: true),
            pattern("LIKE", #"\bLIKE\b"#, "= on a stored normalised key (LIKE ignores case in SQLite, not in PostgreSQL)", caseSensitive: true),
            pattern("IS between values", #"\bIS\s+(NOT\s+)?(?!NULL\b|NOT\b|DISTINCT\b|TRUE\b|FALSE\b)[\w?(']"#,
                    "IS DISTINCT FROM / IS NOT DISTINCT FROM (SQLite reads them since 3.39)", caseSensitive: true),
            pattern("INDEXED BY", #"\bINDEXED\s+BY\b"#, "DialectSQL.indexHint, which names the index on SQLite only", caseSensitive: true),
            pattern("blob literal", #"\b[xX]'[0-9A-Fa-f]*'"#, "a bound [UInt8] argument"),
        ]
    }

    /// The constructs present in `source`'s string literals, by line, for `file`.
    func findings(in source: String, file: String) -> [Finding] {
        SwiftStringLiterals(source).literals.flatMap { literal in
            constructs.filter { $0.isPresent(literal.text) }.map { Finding(file: file, line: literal.line, construct: $0.name) }
        }
    }

    /// Whether the call whose arguments start at `start` has a second argument (SQLite's
    /// scalar `min(a, b)`, not the aggregate `min(a)`), looking past nested parentheses and
    /// quoted strings.
    private static func hasSecondArgument(_ text: String, after start: String.Index) -> Bool {
        var depth = 1
        var inQuote = false
        for character in text[start...] {
            if character == "'" { inQuote.toggle() }
            guard !inQuote else { continue }
            switch character {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return false }
            case "," where depth == 1: return true
            default: break
            }
        }
        return false
    }
}
