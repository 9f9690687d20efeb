import Foundation
import HearthApp

exit(CommandLineInterface.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
