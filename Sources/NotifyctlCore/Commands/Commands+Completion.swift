/// `completion bash`: a shell completion script for notifyctl.
extension Command {
    /// `completion SHELL`.
    public static let completion = Command(
        name: "completion", summary: "Print a shell completion script (bash)",
        arguments: [ArgumentSpec("SHELL", help: "The shell: bash")],
        discussion: """
            Completes command names, options, option values (formats, files, directories) and file arguments.
            The script is made from notifyctl's own command table, so it knows every command of this version.
              source <(notifyctl completion bash)                      this shell only
              notifyctl completion bash > /usr/share/bash-completion/completions/notifyctl
            """,
        group: .offline, json: "Only errors are JSON: the script is shell text either way"
    ) { invocation, context throws(NotifyctlError) in
        let shell = invocation.arguments[0]
        guard shell == "bash" else {
            throw .usage("'completion' supports 'bash', not '\(shell)'", command: "completion")
        }
        context.print(BashCompletion(commands: Notifyctl.commands).script())
        return .success
    }
}
