/// Why a database file could not be opened. Opening never changes a file it refuses.
public enum DatabaseOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder that should hold the file does not exist.
    case missingFolder(path: String, folder: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// The file is an SQLite database but damaged (corrupt or truncated).
    case corrupt(path: String)
    /// The file's write-ahead log (`-wal`) holds pages but its header is damaged: SQLite would
    /// take it for an empty log and delete it, losing the changes it holds.
    case damagedLog(path: String)
    /// The file has no write permission.
    case readOnly(path: String)
    /// The folder has no write permission (SQLite needs it for its journal files).
    case folderNotWritable(path: String, folder: String)
    /// Another connection kept the file locked for longer than the busy timeout.
    case locked(path: String)
    /// The path names a folder.
    case isFolder(path: String)
    /// The path names something that is neither a file nor a folder: a device (`/dev/null`), a
    /// pipe or a socket.
    case notAFile(path: String)
    /// The path is a symbolic link to a file that does not exist (`target`).
    case danglingLink(path: String, target: String)
    /// The path is empty.
    case emptyPath
    /// Any other failure reported by SQLite or the system.
    case other(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .missingFolder(let path, _), .notADatabase(let path), .corrupt(let path),
            .damagedLog(let path), .readOnly(let path), .folderNotWritable(let path, _),
            .locked(let path), .isFolder(let path), .notAFile(let path),
            .danglingLink(let path, _), .other(let path, _):
            return path
        case .emptyPath:
            return ""
        }
    }

    public var description: String {
        switch self {
        case .missingFolder(let path, let folder):
            return "cannot open \(path): the folder \(folder) does not exist"
        case .notADatabase(let path):
            return "\(path) is not a database (file is not SQLite); nothing was changed"
        case .corrupt(let path):
            return "\(path) is damaged (corrupt or truncated database); nothing was changed"
        case .damagedLog(let path):
            return "\(path)-wal, the log of the latest changes to \(path), is damaged; "
                + "nothing was changed (both files are kept as they are)"
        case .readOnly(let path):
            return "\(path) is read-only (no write permission); nothing was changed"
        case .folderNotWritable(let path, let folder):
            return "cannot open \(path): the folder \(folder) is not writable; nothing was changed"
        case .locked(let path):
            let seconds = DatabaseFile.busyTimeoutMilliseconds / 1000
            return "\(path) is locked by another program (waited \(seconds) s); nothing was changed"
        case .isFolder(let path):
            return "\(path) is a folder, not a database file"
        case .notAFile(let path):
            return "\(path) is not a file (a device, a pipe or a socket); nothing was changed"
        case .danglingLink(let path, let target):
            return "cannot open \(path): it links to \(target), which does not exist"
        case .emptyPath:
            return "cannot open a database: the path is empty"
        case .other(let path, let reason):
            return "cannot open \(path): \(reason)"
        }
    }
}
