import GraphQL

extension GraphQLService {
    /// The measured costs behind `retainedBytes(ofDocument:text:)`, in bytes.
    enum RetainedCost {
        /// Per copy of the text held: one in the cache key, one in the syntax tree's names and
        /// string values and the plans' coerced arguments.
        static let perTextByte = 2
        /// Per lexical token: a syntax node or list element with its location.
        static let perToken = 144
        /// Per field: its `Field` node beyond its tokens, and its `FieldPlan` once executed.
        static let perField = 256
        /// Per selection set: the node, and the `SelectionPlan` of each type it is executed on
        /// with its field and slot tables.
        static let perSelectionSet = 768
        /// Per entry: the entry, its key in the index, the prepared operation (about 2 KiB
        /// measured for a document of one field).
        static let perEntry = 2_048
    }

    /// An estimate of the memory a document holds while it is in the document cache, which is
    /// bounded by the sum of these estimates (`GraphQLLimits.documentCacheBytes`).
    ///
    /// A cached document keeps its text twice over (in the cache key, and in the names and
    /// string values of its syntax tree and the coerced constant arguments of its execution
    /// plans), a syntax node or list element for every token, and, once executed, a plan for
    /// every field and selection set (``RetainedCost``: twice the text's bytes, and so much per
    /// token, field, selection set and entry). The costs were measured with `HeapUsage.bytesInUse` on cached,
    /// executed documents of the shapes that hold the most per byte of text (lists of short
    /// strings and of integers, hundreds of aliased leaf fields or of fields with sub-selections,
    /// one long string, many fragments): the estimate is 1 to 1.5 times what each holds (about 3
    /// times for fragments, whose fields are planned once where they are spread), and
    /// `Tests/HearthAPITests/DocumentCacheMemoryTests.swift` fails if one holds more (it runs
    /// `tools/memory-probe`, which measures in a process of its own).
    public static func retainedBytes(ofDocument document: Document, text: String) -> Int {
        var fields = 0
        var selectionSets = 0
        func count(_ selectionSet: SelectionSet) {
            selectionSets += 1
            for selection in selectionSet.selections {
                switch selection {
                case .field(let field):
                    fields += 1
                    if let nested = field.selectionSet { count(nested) }
                case .inlineFragment(let fragment): count(fragment.selectionSet)
                case .fragmentSpread: break
                }
            }
        }
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): count(operation.selectionSet)
            case .fragment(let fragment): count(fragment.selectionSet)
            default: break
            }
        }
        return RetainedCost.perTextByte * text.utf8.count + RetainedCost.perToken * document.tokenCount
            + RetainedCost.perField * fields + RetainedCost.perSelectionSet * selectionSets + RetainedCost.perEntry
    }

    /// An estimate of the memory an Automatic Persisted Query holds in its cache: its text and
    /// its hash (the key), with the entry's overhead.
    public static func retainedBytes(ofPersistedQuery text: String, hash: String) -> Int {
        text.utf8.count + hash.utf8.count + RetainedCost.perEntry / 8
    }
}
