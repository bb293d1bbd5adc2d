import Foundation
import SQLiteDatabase

/// Checks run after every replay when the package trait `UndoDiagnostics` is enabled, or when
/// the environment sets `SQLITEUNDO_DIAGNOSTICS` (in any build: the tests run them without a
/// build of their own): the replay broke no foreign key, and the stack's lists in memory match
/// the log in the file. The replay's statements are logged then too. Off, they cost one test of
/// a flag per replayed statement.
enum UndoDiagnostics {
    /// Whether the checks run and the replay is logged.
    static let isOn: Bool = {
        #if UndoDiagnostics
            true
        #else
            ProcessInfo.processInfo.environment["SQLITEUNDO_DIAGNOSTICS"].map {
                !$0.isEmpty && $0 != "0"
            } ?? false
        #endif
    }()

    /// The references that point at no row, as `PRAGMA foreign_key_check` lists them.
    static func brokenReferences(_ db: Database) throws -> Set<Row> {
        Set(try db.fetchAll(Row.self, referenceCheck))
    }

    /// The statement `brokenReferences` runs (SQLite prepares it again at each run).
    static let referenceCheck = "PRAGMA foreign_key_check"

    /// Checks a replay's result; `brokenBefore` are the references that pointed at no row
    /// before it (another program's writes with foreign keys off): only new ones fail.
    static func check(
        stack: UndoStack, entries: StackEntries, brokenBefore: Set<Row>, _ db: Database
    ) throws {
        let violations = try brokenReferences(db).subtracting(brokenBefore)
        if let first = violations.first {
            throw UndoError.diagnosticFailed("foreign key violation after replay: \(first)")
        }
        // A running block's redo entries are kept in the file and still on the redo list in
        // memory until it returns (`UndoLogSchema.keep`).
        let stored = try UndoLogSchema.entries(ofStack: stack.id, db)
        if stored.undo.map(\.id) != entries.undo.map(\.id)
            || Set((stored.redo + stored.kept).map(\.id))
                != Set((entries.redo + entries.kept).map(\.id))
        {
            throw UndoError.diagnosticFailed(
                "stack \(stack.id) in memory differs from the file")
        }
        let empty = try db.fetchAll(
            Int64.self,
            """
            SELECT id FROM \(UndoLogSchema.barriers) AS b WHERE stackId = ? AND NOT EXISTS
                (SELECT 1 FROM \(UndoLogSchema.log)
                 WHERE seq BETWEEN b.firstSeq AND b.lastSeq AND barrier = b.id)
            """, [.text(stack.id)])
        if !empty.isEmpty {
            throw UndoError.diagnosticFailed("registered barriers without log rows: \(empty)")
        }
        let outside = try db.fetchAll(
            Int64.self,
            """
            SELECT l.seq FROM \(UndoLogSchema.log) AS l
            JOIN \(UndoLogSchema.barriers) AS b ON b.id = l.barrier
            WHERE l.seq NOT BETWEEN b.firstSeq AND b.lastSeq LIMIT 10
            """)
        if !outside.isEmpty {
            throw UndoError.diagnosticFailed(
                "log rows outside their barrier's span: \(outside)")
        }
        try checkPackedRows(db)
    }

    /// A packed row is an in-place update of one column, in an entry marked as packing (a
    /// replay reads only those entries' rows for packed ones).
    private static func checkPackedRows(_ db: Database) throws {
        let wrong = try db.fetchAll(
            Int64.self,
            """
            SELECT p.seq FROM \(UndoLogSchema.log) AS p
            JOIN \(UndoLogSchema.barriers) AS b ON b.id = p.barrier
            WHERE p.splice IS NOT NULL AND (b.packed = 0
                OR p.kind != \(UndoLogSchema.Kind.update.rawValue) OR p.oldRowid IS NOT p.newRowid
                OR p.mask & (p.mask - 1) != 0)
            LIMIT 10
            """)
        if !wrong.isEmpty {
            throw UndoError.diagnosticFailed(
                "packed log rows a replay cannot rebuild: \(wrong)")
        }
    }

    /// Where replayed statements are logged: the file named by `SQLITEUNDO_LOG`, else
    /// standard error unless it is a terminal (a full-screen program draws there).
    static let destination: FileHandle? = {
        if let path = ProcessInfo.processInfo.environment["SQLITEUNDO_LOG"] {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }
        return isatty(STDERR_FILENO) == 1 ? nil : FileHandle.standardError
    }()

    static func log(_ sql: String, _ arguments: [SQLiteValue]) {
        guard isOn else { return }
        destination?.write(Data("sqliteundo replay: \(sql) \(arguments)\n".utf8))
    }
}
