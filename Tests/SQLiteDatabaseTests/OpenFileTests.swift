import Foundation
import SQLiteDatabase
import TestSupport
import Testing

@Suite struct OpenFileTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func permissions(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    /// A real database file with one table and enough rows to span several pages.
    func makeDatabase(_ name: String) throws -> String {
        let path = folder.path(name)
        let db = try DatabaseQueue(path: path)
        try db.write { db in
            try db.execute("CREATE TABLE t(x TEXT)")
            for n in 0..<200 {
                try db.execute(
                    "INSERT INTO t VALUES (?)", [.text(String(repeating: "x", count: 500) + "\(n)")]
                )
            }
        }
        _ = try db.withoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return path
    }

    @Test func newFileIsPrivateWALWithForeignKeys() throws {
        let path = folder.path("new.db")
        let db = try DatabaseQueue(path: path)
        let (journal, foreignKeys) = try db.read { db in
            (
                try db.fetchOne(String.self, "PRAGMA journal_mode"),
                try db.fetchOne(Int.self, "PRAGMA foreign_keys")
            )
        }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        #expect(try permissions(path) == 0o600)
        try db.write { try $0.execute("CREATE TABLE t(x)") }
        #expect(try permissions(path + "-wal") == 0o600)
    }

    @Test func dataSurvivesReopening() throws {
        let path = try makeDatabase("keep.db")
        let count = try DatabaseQueue(path: path).read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM t")
        }
        #expect(count == 200)
    }

    @Test func fileThatIsNotADatabaseIsRefusedUntouched() throws {
        let path = folder.path("notes.txt")
        let original = Data("these are my notes, not a database\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseOpenError.notADatabase(path: path)) {
            try DatabaseQueue(path: path)
        }
        #expect(try bytes(path) == original)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func largeNonDatabaseFileIsRefusedUntouched() throws {
        let path = folder.path("image.bin")
        let original = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try original.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseOpenError.notADatabase(path: path)) {
            try DatabaseQueue(path: path)
        }
        #expect(try bytes(path) == original)
    }

    @Test func truncatedDatabaseIsRefusedUntouched() throws {
        let source = try makeDatabase("full.db")
        let path = folder.path("truncated.db")
        let truncated = try bytes(source).prefix(4096 * 3)
        try truncated.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseOpenError.corrupt(path: path)) { try DatabaseQueue(path: path) }
        #expect(try bytes(path) == truncated)
    }

    @Test func corruptSchemaIsRefusedUntouched() throws {
        let source = try makeDatabase("full.db")
        let path = folder.path("corrupt.db")
        var damaged = try bytes(source)
        // Overwrite the first page's b-tree header (right after the 100-byte file header).
        for offset in 100..<300 { damaged[offset] = 0xEE }
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(throws: DatabaseOpenError.corrupt(path: path)) { try DatabaseQueue(path: path) }
        #expect(try bytes(path) == damaged)
    }

    @Test func readOnlyFileIsRefusedUntouched() throws {
        let path = try makeDatabase("readonly.db")
        let original = try bytes(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect(throws: DatabaseOpenError.readOnly(path: path)) { try DatabaseQueue(path: path) }
        #expect(try bytes(path) == original)
        #expect(
            DatabaseOpenError.readOnly(path: path).description
                == "\(path) is read-only (no write permission); nothing was changed")
    }

    @Test func missingFolderIsNamed() throws {
        let path = folder.path("missing/sub/notes.db")
        let missing = folder.path("missing/sub")
        #expect(throws: DatabaseOpenError.missingFolder(path: path, folder: missing)) {
            try DatabaseQueue(path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("missing")))
    }

    @Test func folderWithoutWritePermissionIsRefused() throws {
        let locked = folder.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        let path = locked + "/notes.db"
        #expect(throws: DatabaseOpenError.folderNotWritable(path: path, folder: locked)) {
            try DatabaseQueue(path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func folderPathIsRefused() throws {
        let path = folder.path("adir")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: DatabaseOpenError.isFolder(path: path)) { try DatabaseQueue(path: path) }
    }

    /// A pipe would block the first read for good; beside a device SQLite would write its
    /// journal (`/dev/null-journal`).
    @Test func pipesAndDevicesAreRefusedAtOnce() throws {
        let pipe = folder.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(throws: DatabaseOpenError.notAFile(path: pipe)) { try DatabaseQueue(path: pipe) }
        #expect(
            DatabaseOpenError.notAFile(path: pipe).description
                == "\(pipe) is not a file (a device, a pipe or a socket); nothing was changed")
        let journalBefore = FileManager.default.fileExists(atPath: "/dev/null-journal")
        #expect(throws: DatabaseOpenError.notAFile(path: "/dev/null")) {
            try DatabaseQueue(path: "/dev/null")
        }
        #expect(FileManager.default.fileExists(atPath: "/dev/null-journal") == journalBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["pipe"])
    }

    @Test func aLinkToNothingAndAnEmptyPathAreNamed() throws {
        let link = folder.path("link.db")
        let target = folder.path("nowhere/notes.db")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: DatabaseOpenError.danglingLink(path: link, target: target)) {
            try DatabaseQueue(path: link)
        }
        #expect(
            DatabaseOpenError.danglingLink(path: link, target: target).description
                == "cannot open \(link): it links to \(target), which does not exist")
        #expect(throws: DatabaseOpenError.emptyPath) { try DatabaseQueue(path: "") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["link.db"])
    }
}

extension OpenFileTests {
    /// A database whose last commits are in its WAL only (its writer never closed, as after a
    /// SIGKILL), copied with the WAL; `damage` changes the copy's WAL first.
    func crashedCopy(_ name: String, damage: (inout Data) -> Void) throws -> String {
        let source = try makeDatabase("source-\(name)")
        let writer = try DatabaseQueue(path: source)
        try writer.write { try $0.execute("INSERT INTO t VALUES ('only in the log')") }
        let copy = folder.path(name)
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        var log = try bytes(source + "-wal")
        damage(&log)
        try log.write(to: URL(fileURLWithPath: copy + "-wal"))
        withExtendedLifetime(writer) {}
        return copy
    }

    @Test func aLogWithAGoodHeaderIsReadAndItsCommitsKept() throws {
        let copy = try crashedCopy("good.db") { _ in }
        let db = try DatabaseQueue(path: copy)
        #expect(try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 201)
    }

    /// A damaged log header (zeroed, or one byte of its checksum or salt changed) would make
    /// SQLite read the log as empty and delete it: the file and its log are refused untouched.
    @Test(arguments: [0, 4, 17, 27])
    func aLogWithADamagedHeaderIsRefusedUntouched(byte: Int) throws {
        let copy = try crashedCopy("damaged-\(byte).db") { $0[byte] ^= 0x01 }
        let before = try (bytes(copy), bytes(copy + "-wal"))
        #expect(throws: DatabaseOpenError.damagedLog(path: copy)) {
            try DatabaseQueue(path: copy)
        }
        #expect(try (bytes(copy), bytes(copy + "-wal")) == before)
    }
}
