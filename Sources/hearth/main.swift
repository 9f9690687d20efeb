import FoundationEssentials
import Glibc
import HearthApp
import Support

// Before any thread exists: shutdown signals are received by `hearth serve`'s waiting
// thread only, and a peer hanging up gives EPIPE instead of killing the process.
ShutdownSignal.blockInProcess()
exit(CommandLineInterface.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
