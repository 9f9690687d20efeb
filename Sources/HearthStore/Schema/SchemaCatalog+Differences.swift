extension SchemaCatalog {
    /// Every way this catalog, called `name`, differs from `other`, called `otherName`: one line
    /// each, sorted, empty when the two are the same logical schema. A line names the table, and
    /// the column, key or index, with what each side has (`only in <name>` when one lacks it).
    public func differences(named name: String, from other: SchemaCatalog, named otherName: String) -> [String] {
        var lines: [String] = []
        for table in Set(tables.keys).union(other.tables.keys) {
            switch (tables[table], other.tables[table]) {
            case let (mine?, theirs?):
                lines += mine.differences(named: name, from: theirs, named: otherName)
            case (_?, nil):
                lines.append("table \(table): only in \(name)")
            default:
                lines.append("table \(table): only in \(otherName)")
            }
        }
        return lines.sorted()
    }
}

extension SchemaCatalog.Table {
    /// The lines of ``SchemaCatalog/differences(named:from:named:)`` for this table.
    fileprivate func differences(named name: String, from other: Self, named otherName: String) -> [String] {
        var lines: [String] = []
        func compare<T: Hashable>(_ what: String, _ mine: T?, _ theirs: T?, _ show: (T) -> String) {
            guard mine != theirs else { return }
            switch (mine, theirs) {
            case let (mine?, theirs?): lines.append("\(what): \(name) \(show(mine)), \(otherName) \(show(theirs))")
            case (_?, nil): lines.append("\(what): only in \(name)")
            default: lines.append("\(what): only in \(otherName)")
            }
        }
        let myColumns = Dictionary(columns.map { ($0.name, $0) }) { first, _ in first }
        let theirColumns = Dictionary(other.columns.map { ($0.name, $0) }) { first, _ in first }
        for column in Set(myColumns.keys).union(theirColumns.keys) {
            compare("\(self.name).\(column)", myColumns[column], theirColumns[column]) { $0.description }
        }
        let shared = Set(myColumns.keys).intersection(theirColumns.keys)
        let myOrder = columns.map(\.name).filter(shared.contains)
        let theirOrder = other.columns.map(\.name).filter(shared.contains)
        compare("\(self.name) column order", myOrder, theirOrder) { $0.joined(separator: ", ") }
        compare("\(self.name) CHECK constraints", checkCount, other.checkCount) { String($0) }
        compare("\(self.name) primary key", primaryKey, other.primaryKey) { "(\($0.joined(separator: ", ")))" }
        for key in uniqueKeys.symmetricDifference(other.uniqueKeys) {
            compare("\(self.name) UNIQUE (\(key.joined(separator: ", ")))", uniqueKeys.contains(key) ? key : nil,
                    other.uniqueKeys.contains(key) ? key : nil) { _ in "" }
        }
        for key in foreignKeys.symmetricDifference(other.foreignKeys) {
            compare("\(self.name) FOREIGN KEY \(key)", foreignKeys.contains(key) ? key : nil,
                    other.foreignKeys.contains(key) ? key : nil) { _ in "" }
        }
        for index in Set(indexes.keys).union(other.indexes.keys) {
            compare("index \(self.name).\(index)", indexes[index], other.indexes[index]) { $0.description }
        }
        return lines
    }
}
