import CMimalloc  // linked for its malloc: see Package.swift
import Glibc
import NotifyDaemon

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let text = String(cString: pointer)
    if let equals = text.firstIndex(of: "=") {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    entry += 1
}
exit(NotifyDaemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
