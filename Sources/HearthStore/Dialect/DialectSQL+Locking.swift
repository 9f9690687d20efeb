extension DialectSQL {
    /// The locking clause that ends a subquery's `SELECT` so that it takes its rows for the
    /// statement's transaction and skips rows another transaction holds: `FOR UPDATE SKIP LOCKED`
    /// on PostgreSQL, so concurrent workers (the job queue's leases) claim disjoint rows without
    /// waiting on each other, and a row another worker changed and committed meanwhile is checked
    /// again against the subquery's conditions before it is taken; empty on SQLite, whose single
    /// writer runs one claim at a time.
    public static func skipLockedRows(_ dialect: Database.Dialect) -> String {
        switch dialect {
        case .sqlite: ""
        case .postgresql: "FOR UPDATE SKIP LOCKED"
        }
    }
}
