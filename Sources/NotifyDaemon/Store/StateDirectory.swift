import Glibc

/// The `--state-dir` a user names: made when it does not exist, as a user expects (systemd makes its own with
/// `StateDirectory=`), private to the daemon's user.
enum StateDirectory {
    /// Makes `path` and any missing parent with mode 0700; an existing directory is left as it is (the started
    /// entry names the directory either way).
    static func create(_ path: String) throws(NotifyDaemon.StartupError) {
        // Something there already, or unreachable: the store's own checks say what is wrong with it.
        var info = stat()
        guard stat(path, &info) != 0, errno == ENOENT else { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            guard mkdir(prefix, 0o700) != 0 else { continue }
            let error = errno
            guard error == EEXIST else {
                throw NotifyDaemon.StartupError(
                    message:
                        "cannot create the state directory \(path): \(prefix): \(String(cString: strerror(error))); "
                        + "create it yourself or pass another --state-dir")
            }
        }
    }
}
