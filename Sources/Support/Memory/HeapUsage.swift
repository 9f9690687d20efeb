import CSystem

/// What the process's heap holds.
public enum HeapUsage {
    /// The bytes allocated with malloc (Swift objects, arrays, strings) and not yet freed, in
    /// every arena. Unlike the resident set size it does not count freed memory that malloc
    /// keeps for reuse, so the difference between two readings is what was kept in between
    /// (allocations by other threads meanwhile included).
    public static var bytesInUse: Int { Int(csystem_heap_bytes_in_use()) }
}
