/// Column lists of SQL statements.
enum SQLColumns {
    /// `columns` (`id, name, …`) qualified with the table alias `alias` (`t.id, t.name, …`), for joins.
    static func qualified(_ columns: String, by alias: String) -> String {
        columns.split(separator: ", ").map { "\(alias).\($0)" }.joined(separator: ", ")
    }
}
