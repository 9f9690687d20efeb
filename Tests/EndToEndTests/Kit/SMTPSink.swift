import Foundation
import TestPython

/// A loopback SMTP server (aiosmtpd, plain SMTP, no authentication) that accepts every
/// message and reports each as it arrives: what a server started with `--mail-transport smtp`
/// sends, as a recipient's inbox would hold it.
final class SMTPSink {
    /// One message received.
    struct Message {
        /// The envelope's recipients.
        let recipients: [String]
        /// The decoded subject.
        let subject: String
        /// The decoded plain-text part.
        let text: String
        /// The decoded HTML part, or "".
        let html: String
    }

    private static let script = #"""
    import email, email.policy, json, socket, threading
    from aiosmtpd.controller import Controller

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
            parts = {part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}
            print(json.dumps({"recipients": envelope.rcpt_tos, "subject": message["Subject"],
                              "text": parts.get("text/plain", ""), "html": parts.get("text/html", "")}), flush=True)
            return "250 OK queued"

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    Controller(Handler(), hostname="127.0.0.1", port=port).start()
    print(json.dumps({"port": port}), flush=True)
    threading.Event().wait()
    """#

    private let peer: PythonPeer
    /// The port it listens on, on 127.0.0.1.
    let port: Int

    /// Starts the server.
    init() throws {
        peer = try PythonPeer(script: Self.script)
        port = try peer.readJSON()["port"] as? Int ?? 0
    }

    /// The options that make `hearth serve` send its mail here.
    var serverArguments: [String] {
        ["--mail-transport", "smtp", "--smtp-host", "127.0.0.1", "--smtp-port", String(port), "--smtp-tls", "off"]
    }

    /// The next message to arrive; waits for it.
    func next() throws -> Message {
        let object = try peer.readJSON()
        return Message(
            recipients: object["recipients"] as? [String] ?? [], subject: object["subject"] as? String ?? "",
            text: object["text"] as? String ?? "", html: object["html"] as? String ?? "")
    }
}
