/// The BEGIN and END properties that delimit iCalendar components (RFC 5545 §3.4, §3.6), in one
/// place: they are not SQL, whatever a check of SQL keywords in string literals reads in them
/// (`PortableSQLTests` lists this file as the exception).
enum ICalendarComponent {
    /// The property that opens a component.
    static let begin = "BEGIN"
    /// The property that closes one.
    static let end = "END"

    /// `body` between the BEGIN and END lines of component `name`.
    static func lines(_ name: String, around body: [String]) -> [String] {
        [begin + ":" + name] + body + [end + ":" + name]
    }
}
