import Foundation
import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo

/// Measures on the notebook's real schema (its foreign key with ON DELETE
/// CASCADE, the search indexes and the count triggers): undo and redo of deleting an author
/// with `bigActionArticles` articles, one barrier, against the same rows put back and deleted
/// by plain SQL on a copy of the file; undo of importing as many articles in one barrier
/// against the same rows deleted by plain SQL; and the peak memory the undo and the redo add.
@MainActor
struct BigActionBenchmarks {
    let config: BenchConfig
    let folder: ScratchFolder

    func run() throws -> [Measurement] {
        try measureDeleteAuthor() + [measureImport(), measureUndoInTheApp()]
    }

    /// A notebook whose author 1 wrote `bigActionArticles` articles of 500 bytes, and author 2 one.
    func notebook(_ name: String) throws -> String {
        let path = folder.path("big-action-\(name).db")
        let db = try DatabaseQueue(path: path)
        defer { db.close() }
        try NoteStoreSchema.migrate(db)
        try db.write { db in
            let first = try Notebook.insertAuthor(db, name: "Prolific")
            let second = try Notebook.insertAuthor(db, name: "Other")
            _ = try Notebook.insertArticle(db, title: "Kept", body: "kept", authorId: second)
            try Self.insertArticles(config.bigActionArticles, by: first, db)
        }
        return path
    }

    /// `count` articles of 500-byte bodies by `author`, through the `articles` view.
    static func insertArticles(_ count: Int, by author: Int64, _ db: Database) throws {
        try db.execute(
            """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
            INSERT INTO articles(title, body, authorId, rating, createdAt, updatedAt)
            SELECT 'Imported ' || x,
                   substr('word' || (x % 997) || ' '
                          || replace(hex(zeroblob(50)), '00', 'lorem ipsum '), 1, 500),
                   ?, x % 6,
                   strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch'),
                   strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch')
            FROM n
            """, [.integer(Int64(count)), .integer(author)])
    }

    private func measureDeleteAuthor() throws -> [Measurement] {
        let (db, engine) = try NotebookOpener.open(
            path: try notebook("undo"), seed: .welcome, undo: true)
        guard let engine else { throw BenchFailure("no engine") }
        let stack = try engine.stack(id: "bench")
        try withUndoStack(stack) {
            try undoable("Delete Author") {
                try db.write { try Notebook.deleteAuthor($0, id: 1) }
            }
        }
        let plain = try DatabaseQueue(path: try notebook("plain"))
        // The rows to put back, kept aside untimed (the log holds them for the undo).
        try plain.write { db in
            try db.execute(
                """
                CREATE TABLE saved_author AS SELECT * FROM authors WHERE id = 1;
                CREATE TABLE saved_rows AS SELECT * FROM article_rows WHERE authorId = 1;
                CREATE TABLE saved_chunks AS SELECT * FROM article_chunks
                    WHERE articleId IN (SELECT id FROM saved_rows);
                DELETE FROM authors WHERE id = 1;
                """)
        }
        let articles = { (db: DatabaseQueue) in
            try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM article_rows") ?? 0 }
        }
        var isDeleted = (notes: true, plain: true)
        let undo = { () throws in
            guard try stack.undo() != nil else { throw BenchFailure("nothing to undo") }
            isDeleted.notes = false
        }
        let redo = { () throws in
            guard try stack.redo() != nil else { throw BenchFailure("nothing to redo") }
            isDeleted.notes = true
        }
        let putBack = { () throws in
            try plain.write { db in
                try db.execute(
                    """
                    INSERT INTO authors SELECT * FROM saved_author;
                    INSERT INTO article_rows SELECT * FROM saved_rows;
                    INSERT INTO article_chunks SELECT * FROM saved_chunks;
                    """)
            }
            isDeleted.plain = false
        }
        let delete = { () throws in
            try plain.write { try $0.execute("DELETE FROM authors WHERE id = 1") }
            isDeleted.plain = true
        }
        // Resident memory before each undo and redo, and its peak during it (kB).
        var memory: [(before: Double, peak: Double)] = []
        let undoPeak = { () throws in
            let before = ResidentMemory.resetPeak()
            try undo()
            memory.append((before, ResidentMemory.peak()))
        }
        let redoPeak = { () throws in
            let before = ResidentMemory.resetPeak()
            try redo()
            memory.append((before, ResidentMemory.peak()))
        }
        let undone = try Interleaving.medianSeconds(
            [
                Contender(prepare: { if !isDeleted.notes { try redo() } }, run: undoPeak),
                Contender(prepare: { if !isDeleted.plain { try delete() } }, run: putBack),
            ], repetitions: config.bigActionRepetitions)
        guard try articles(db) == config.bigActionArticles + 1, try articles(plain) == articles(db)
        else { throw BenchFailure("the undo did not bring the articles back") }
        let redone = try Interleaving.medianSeconds(
            [
                Contender(prepare: { if isDeleted.notes { try undo() } }, run: redoPeak),
                Contender(prepare: { if isDeleted.plain { try putBack() } }, run: delete),
            ], repetitions: config.bigActionRepetitions)
        guard try articles(db) == 1, try articles(plain) == 1 else {
            throw BenchFailure("the redo did not delete the articles again")
        }
        let articlesLabel = "\(countLabel(config.bigActionArticles)) articles"
        let most = memory.max { $0.peak - $0.before < $1.peak - $1.before } ?? (0, 0)
        return [
            Measurement(
                measure: "undo of deleting an author with \(articlesLabel) (cascade) "
                    + "/ the rows put back by plain SQL",
                value: undone[0], baseline: undone[1], unit: .seconds, target: .atMost(2.5)),
            Measurement(
                measure: "redo of it / the same cascade delete by plain SQL",
                value: redone[0], baseline: redone[1], unit: .seconds, target: .atMost(2.5)),
            Measurement(
                measure: "peak resident memory during that undo or redo / before it (the one "
                    + "that adds most of \(memory.count))",
                value: most.peak, baseline: most.before, unit: .kilobytes,
                target: .addsAtMostMegabytes(32)),
        ]
    }

    private func measureImport() throws -> Measurement {
        let (db, engine) = try NotebookOpener.open(
            path: try notebook("import"), seed: .welcome, undo: true)
        guard let engine else { throw BenchFailure("no engine") }
        let plain = try DatabaseQueue(path: try notebook("import-plain"))
        let stack = try engine.stack(id: "bench")
        let highest = try db.read {
            try $0.fetchOne(Int64.self, "SELECT max(id) FROM article_rows") ?? 0
        }
        let importArticles = {
            try withUndoStack(stack) {
                try undoable("Import") {
                    try db.write { try Self.insertArticles(config.bigActionArticles, by: 2, $0) }
                }
            }
        }
        try importArticles()
        try plain.write { try Self.insertArticles(config.bigActionArticles, by: 2, $0) }
        try plain.write { db in
            try db.execute(
                "CREATE TABLE saved_rows AS SELECT * FROM article_rows WHERE id > ?",
                [.integer(highest)])
            try db.execute(
                "CREATE TABLE saved_chunks AS SELECT * FROM article_chunks WHERE articleId > ?",
                [.integer(highest)])
        }
        var imported = (notes: true, plain: true)
        let medians = try Interleaving.medianSeconds(
            [
                Contender(
                    prepare: {
                        // Imported again as a new action: its redo (rows put back from a log
                        // of inserts and stamps) is not what is measured, and goes row by row.
                        if !imported.notes { try importArticles() }
                        imported.notes = true
                    }
                ) {
                    guard try stack.undo() != nil else { throw BenchFailure("nothing to undo") }
                    imported.notes = false
                },
                Contender(
                    prepare: {
                        if !imported.plain {
                            try plain.write { db in
                                try db.execute(
                                    """
                                    INSERT INTO article_rows SELECT * FROM saved_rows;
                                    INSERT INTO article_chunks SELECT * FROM saved_chunks;
                                    """)
                            }
                        }
                        imported.plain = true
                    }
                ) {
                    try plain.write {
                        try $0.execute(
                            "DELETE FROM article_rows WHERE id > ?", [.integer(highest)])
                    }
                    imported.plain = false
                },
            ], repetitions: config.bigActionRepetitions)
        let left = try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM article_rows") }
        guard left == config.bigActionArticles + 1 else {
            throw BenchFailure("the undo of the import left \(left ?? -1) articles")
        }
        return Measurement(
            measure:
                "undo of importing \(countLabel(config.bigActionArticles)) articles (one barrier) "
                + "/ the same rows deleted by plain SQL",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(2.5))
    }
}

/// This process's resident memory, from `/proc/self/status`.
enum ResidentMemory {
    /// Resets the peak (`VmHWM`) to what is resident now, and returns that, in kB.
    static func resetPeak() -> Double {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return value("VmRSS:")
    }

    /// The peak since the last reset, in kB.
    static func peak() -> Double { value("VmHWM:") }

    private static func value(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true)
                .dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return kilobytes
    }
}
