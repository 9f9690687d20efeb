import Foundation

extension TestPython {
    /// A Python run that exited with an error, with what it wrote to standard error.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// A zip archive of `files` (name → text, UTF-8), deflated, in name order, written by Python's
    /// `zipfile` (as `java.util.zip` writes Loop Habit Tracker's exports: no folder entries).
    /// - Throws: ``Failed`` when Python fails; `Missing` without Python.
    public static func zip(_ files: [String: String]) throws -> [UInt8] {
        let script = """
            import io, json, sys, zipfile
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for name, text in sorted(json.loads(sys.stdin.read()).items()):
                    archive.writestr(name, text)
            sys.stdout.buffer.write(out.getvalue())
            """
        let outcome = try run(["-c", script], input: try JSONSerialization.data(withJSONObject: files))
        guard outcome.status == 0 else { throw Failed(description: outcome.errors) }
        return Array(outcome.standardOutput)
    }
}
