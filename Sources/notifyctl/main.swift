import NotifyctlCore

#if canImport(Glibc)
import Glibc
#endif

// The command table, parsing, printing and the commands live in NotifyctlCore; this only wires them to the process.
let status = Notifyctl.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
exit(status.rawValue)
