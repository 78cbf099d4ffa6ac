import Glibc

extension StateStore {
    // MARK: - Opening

    /// Checks the directory and file before SQLite sees them, so permission problems read plainly.
    static func preflight(directory: String, path: String) throws(StoreError) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let e = errno
            let code: StoreError.Code = e == ENOENT || e == ENOTDIR ? .directoryMissing : .unreadable
            let problem = code == .directoryMissing ? "does not exist" : "cannot be used: \(errnoText(e))"
            throw StoreError(code: code, message: "the state directory \(problem)", path: directory)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(
                code: .directoryMissing, message: "the state directory is not a directory", path: directory)
        }
        guard faccessat(AT_FDCWD, directory, W_OK | X_OK, AT_EACCESS) == 0 else {
            throw StoreError(
                code: .readOnly, message: "the state directory is not writable: \(errnoText(errno))", path: directory)
        }
        guard lstat(path, &info) == 0 else { return }  // a new database
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreError(code: .cannotOpen, message: "the database is not a regular file", path: path)
        }
        guard faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0 else {
            throw StoreError(code: .unreadable, message: "cannot read the database: \(errnoText(errno))", path: path)
        }
        guard faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 else {
            throw StoreError(code: .readOnly, message: "cannot write the database: \(errnoText(errno))", path: path)
        }
    }

    /// Opens `directory` and locks it (`flock`, exclusive, not waiting): one store per directory, in this process
    /// or another. Returns the descriptor, which holds the lock until it is closed.
    static func lock(directory: String) throws(StoreError) -> FileDescriptor {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError(
                code: .unreadable, message: "cannot open the state directory: \(errnoText(errno))", path: directory)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            Glibc.close(fd)
            guard e == EWOULDBLOCK else {
                throw StoreError(
                    code: .unreadable, message: "cannot lock the state directory: \(errnoText(e))", path: directory)
            }
            throw StoreError(
                code: .busy, message: "another notifyd is using this state directory", path: directory)
        }
        return FileDescriptor(rawValue: fd)
    }

    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
