import Foundation
import NoteStore
import SQLiteDatabase
import TestSupport
import Testing

/// The notebook file stays usable from the plain `sqlite3` command line, which has none of the
/// functions the app or the undo engine register.
@Suite struct CommandLineTests {
    let folder: TemporaryFolder
    let path: String
    static let old = "2001-01-01T00:00:00.000Z"

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("notes.db")
        let db = try DatabaseQueue(path: path)
        try NoteStoreSchema.migrate(db)
        try db.write { db throws in
            let author = try Notebook.insertAuthor(db, name: "Ada")
            let id = try Notebook.insertArticle(
                db, title: "First", body: "written by the app", authorId: author)
            try db.setDates(ofArticle: id, created: Self.old, updated: Self.old)
        }
    }

    /// Runs `sqlite3 -bail` on the file with `sql` on standard input; returns standard output.
    func sqlite3(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(sql.utf8))
        try input.fileHandleForWriting.close()
        let text = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(problems == "")
        #expect(process.terminationStatus == 0)
        return text
    }

    @Test func sqlite3CanQueryEditAndSearchTheNotebook() throws {
        #expect(
            try sqlite3(
                "SELECT a.id, a.title, au.name FROM articles a JOIN authors au ON au.id = a.authorId;"
            )
                == "1|First|Ada\n")

        let edited = try sqlite3(
            """
            UPDATE articles SET title = 'Edited in the shell' WHERE id = 1;
            SELECT title, updatedAt > '\(Self.old)', length(updatedAt) FROM articles WHERE id = 1;
            """)
        #expect(edited == "Edited in the shell|1|24\n")

        let inserted = try sqlite3(
            """
            INSERT INTO articles(title, body) VALUES ('From the shell', 'zebra crossing');
            SELECT id, body FROM articles WHERE id = 2;
            SELECT count(*) FROM articles_fts WHERE articles_fts MATCH 'zebra';
            SELECT count(*) FROM articles_fts WHERE articles_fts MATCH 'edited';
            """)
        #expect(inserted == "2|zebra crossing\n1\n1\n")

        // A body written whole through the view, and an article deleted through it.
        let rewritten = try sqlite3(
            """
            INSERT INTO articles(title, body) VALUES ('Gone soon', 'okapi');
            UPDATE articles SET body = 'written by the shell' WHERE id = 1;
            DELETE FROM articles WHERE id = 3;
            SELECT id, body FROM articles ORDER BY id;
            SELECT count(*) FROM article_chunks WHERE articleId = 3;
            SELECT count(*) FROM articles_fts WHERE articles_fts MATCH 'okapi OR app';
            """)
        #expect(rewritten == "1|written by the shell\n2|zebra crossing\n0\n0\n")

        // And the app sees all of it.
        let db = try DatabaseQueue(path: path)
        try db.read { db throws in
            let article = try #require(try Notebook.article(db, id: 2))
            #expect(isTimestamp(article.createdAt) && article.updatedAt == article.createdAt)
            #expect(
                article
                    == Article(
                        id: 2, authorId: nil, title: "From the shell", body: "zebra crossing",
                        rating: 0, createdAt: article.createdAt, updatedAt: article.createdAt))
            let first = try #require(try Notebook.article(db, id: 1))
            #expect(first.title == "Edited in the shell" && isTimestamp(first.updatedAt))
            #expect(first.body == "written by the shell")
            #expect(first.updatedAt > Self.old)
            #expect(
                try Notebook.page(db, ArticleQuery(search: "zebra"), offset: 0, limit: 5)
                    .map(\.id) == [2])
        }
    }

    /// `sqlite3` rewrites a long body whole through the view: a change inside one chunk
    /// rewrites that chunk alone (the others keep their rows, and the history of edits in
    /// them); a change across chunks puts the whole body in the first one.
    @Test func aBodyWrittenWholeBySqlite3KeepsTheChunksItDidNotChange() throws {
        let lines = (0..<2000).map { "line \($0) lorem ipsum dolor sit amet\n" }.joined()
        let db = try DatabaseQueue(path: path)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: lines) }
        func chunks() throws -> [[SQLiteValue]] {
            try db.read { db throws in
                try db.fetchAll(
                    Row.self,
                    "SELECT id, text FROM article_chunks WHERE articleId = ? ORDER BY position",
                    [.integer(id)]
                ).map(\.values)
            }
        }
        func body() throws -> String? { try db.read { try Notebook.article($0, id: id)?.body } }
        let before = try chunks()
        #expect(before.count > 50)
        _ = try sqlite3(
            "UPDATE articles SET body = replace(body, 'line 1000 ', 'line 1000 EDITED ') WHERE id = \(id);"
        )
        let after = try chunks()
        #expect(after.map { $0[0] } == before.map { $0[0] })
        #expect(zip(before, after).filter { $0.0 != $0.1 }.count == 1)
        #expect(try body() == lines.replacing("line 1000 ", with: "line 1000 EDITED "))
        // Lines 10 and 1990 are in different chunks: one chunk holds the body now.
        let both = try #require(try body())
            .replacing("line 10 ", with: "line ten ").replacing("line 1990 ", with: "line end ")
        _ = try sqlite3(
            """
            UPDATE articles SET body = replace(replace(body, 'line 10 ', 'line ten '),
                'line 1990 ', 'line end ') WHERE id = \(id);
            """)
        #expect(try chunks().map { $0[0] } == [before[0][0]])
        #expect(try body() == both)
        #expect(
            try db.read { db throws in
                try Notebook.page(db, ArticleQuery(search: "EDITED"), offset: 0, limit: 5).map(\.id)
            } == [id])
    }
}
