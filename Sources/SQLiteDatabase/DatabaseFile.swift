internal import CSQLite3
import Foundation

/// Checks a database path before SQLite touches it, and opens the connection.
///
/// Every check reads only: a file that is refused keeps its bytes.
enum DatabaseFile {
    static let busyTimeoutMilliseconds: Int32 = 5000

    static func openInMemory() throws -> OpaquePointer {
        try openHandle(
            ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, path: ":memory:")
    }

    /// Checks the path and opens a validated connection, not configured yet (see `configure`).
    static func open(path: String) throws -> OpaquePointer {
        guard !path.isEmpty else { throw DatabaseOpenError.emptyPath }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
            isFolder.boolValue
        else { throw DatabaseOpenError.missingFolder(path: path, folder: folder) }

        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw DatabaseOpenError.isFolder(path: path) }
            // Before anything reads it: a pipe would block the read for good, and SQLite would
            // put its journal beside a device.
            guard isRegularFile(path) else { throw DatabaseOpenError.notAFile(path: path) }
            guard isWritable(path) else { throw DatabaseOpenError.readOnly(path: path) }
            guard isWritable(folder) else {
                throw DatabaseOpenError.folderNotWritable(path: path, folder: folder)
            }
            try checkHeader(path: path)
            try checkWriteAheadLog(path: path)
        } else {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                throw DatabaseOpenError.danglingLink(path: path, target: target)
            }
            guard isWritable(folder) else {
                throw DatabaseOpenError.folderNotWritable(path: path, folder: folder)
            }
            try createPrivateFile(path)
        }

        let handle = try openHandle(path, flags: SQLITE_OPEN_READWRITE, path: path)
        // Before the first read: another program may hold a lock.
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        do {
            try validate(handle, path: path)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    /// Opens a read-only connection to a file another connection has already opened and
    /// configured (a check running beside it), with the same busy timeout.
    static func openForReading(path: String) throws -> OpaquePointer {
        let handle = try openHandle(path, flags: SQLITE_OPEN_READONLY, path: path)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        return handle
    }

    /// Whether a path (followed through links) names a regular file.
    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether a path may be written. Root passes `access(2)` for every file, so for root the
    /// mode's write bits decide: a file someone made read-only stays untouched.
    private static func isWritable(_ path: String) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        guard geteuid() == 0 else { return true }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0
    }

    /// Creates an empty file (an empty file is a valid empty database) readable by its owner only;
    /// SQLite gives its -wal and -shm files the same mode.
    private static func createPrivateFile(_ path: String) throws {
        let descriptor = Foundation.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DatabaseOpenError.other(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    /// Refuses a file whose header promises more pages than it holds (a truncated copy), which
    /// SQLite would only notice when it reads a missing page.
    private static func checkHeader(path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw DatabaseOpenError.other(path: path, reason: "cannot read the file")
        }
        defer { try? file.close() }
        let header = [UInt8](file.readData(ofLength: 100))
        guard !header.isEmpty else { return }  // empty: a new database
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw DatabaseOpenError.notADatabase(path: path)
        }
        func bigEndian(_ offset: Int, _ count: Int) -> UInt64 {
            header[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
        }
        var pageSize = bigEndian(16, 2)
        if pageSize == 1 { pageSize = 65536 }
        let pageCount = bigEndian(28, 4)
        let headerCountIsValid = pageCount > 0 && bigEndian(24, 4) == bigEndian(92, 4)
        let walExists = FileManager.default.fileExists(atPath: path + "-wal")
        guard headerCountIsValid, !walExists,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? UInt64
        else { return }
        if size < pageSize * pageCount { throw DatabaseOpenError.corrupt(path: path) }
    }

    /// Refuses a file whose write-ahead log holds frames under a damaged header (bad magic,
    /// version or checksum). SQLite would read such a log as empty and delete it at close: the
    /// changes in it, all a crash left of the latest edits, would be gone for good. A log with no
    /// frames, or a torn frame after good ones (a crash mid-write), is normal.
    private static func checkWriteAheadLog(path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path + "-wal") else { return }
        defer { try? file.close() }
        let header = [UInt8](file.readData(ofLength: 33))
        guard header.count > 32 else { return }  // the header only, or less: no frames
        func word(_ offset: Int, bigEndian: Bool = true) -> UInt32 {
            let bytes = header[offset..<offset + 4]
            return bigEndian
                ? bytes.reduce(0) { $0 << 8 | UInt32($1) }
                : bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        let magic = word(0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683, word(4) == 3_007_000 else {
            throw DatabaseOpenError.damagedLog(path: path)
        }
        // SQLite's checksum of the first 24 bytes, in the byte order the magic names.
        let bigEndian = magic & 1 == 1
        var sums: (UInt32, UInt32) = (0, 0)
        for offset in stride(from: 0, to: 24, by: 8) {
            sums.0 = sums.0 &+ word(offset, bigEndian: bigEndian) &+ sums.1
            sums.1 = sums.1 &+ word(offset + 4, bigEndian: bigEndian) &+ sums.0
        }
        guard sums == (word(24), word(28)) else { throw DatabaseOpenError.damagedLog(path: path) }
    }

    private static func openHandle(_ filename: String, flags: Int32, path: String) throws
        -> OpaquePointer
    {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(filename, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let reason =
                handle.map { String(cString: sqlite3_errmsg($0)) }
                ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw DatabaseOpenError.other(path: path, reason: reason)
        }
        return handle
    }

    /// Reads the schema, which fails on a file that is not a database or is damaged.
    private static func validate(_ handle: OpaquePointer, path: String) throws {
        let code = sqlite3_exec(handle, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
        switch code & 0xFF {
        case SQLITE_OK: return
        case SQLITE_NOTADB: throw DatabaseOpenError.notADatabase(path: path)
        case SQLITE_CORRUPT: throw DatabaseOpenError.corrupt(path: path)
        case SQLITE_BUSY: throw DatabaseOpenError.locked(path: path)
        default:
            throw DatabaseOpenError.other(
                path: path, reason: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Switches an opened file to WAL (which rewrites its header) and turns foreign keys on.
    static func configure(_ handle: OpaquePointer, path: String) throws {
        // WAL with synchronous NORMAL: a commit survives the program crashing or being killed
        // (the WAL is written before COMMIT returns); only a power loss may lose the last ones.
        let pragmas = [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
        ]
        // Leaving another journal mode needs an exclusive lock, for which SQLite does not wait:
        // it is retried for as long as the busy timeout.
        let deadline = ContinuousClock.now + .milliseconds(busyTimeoutMilliseconds)
        for pragma in pragmas {
            var code = sqlite3_exec(handle, pragma, nil, nil, nil)
            while code & 0xFF == SQLITE_BUSY, ContinuousClock.now < deadline {
                usleep(20_000)
                code = sqlite3_exec(handle, pragma, nil, nil, nil)
            }
            switch code & 0xFF {
            case SQLITE_OK: continue
            case SQLITE_BUSY: throw DatabaseOpenError.locked(path: path)
            default:
                throw DatabaseOpenError.other(
                    path: path, reason: String(cString: sqlite3_errmsg(handle)))
            }
        }
    }
}
