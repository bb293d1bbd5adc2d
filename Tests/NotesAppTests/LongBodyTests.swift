import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// Typing, undo and redo in a body of many chunks: the editor writes only the chunks it
/// touches and brings itself up to date from the chunks an undo rewrote, and what it shows is
/// always exactly what is stored, in the pane that typed and in another pane on the article.
@MainActor @Suite struct LongBodyTests {
    static let line = "lorem ipsum dolor sit amet, 😀 consectetur adipiscing elit.\n"
    static let original = String(repeating: line, count: 800)  // about 50 KB

    func stored(_ fixture: AppFixture) throws -> String? {
        try fixture.db.read { try Notebook.article($0, id: 1)?.body }
    }

    func chunkLengths(_ fixture: AppFixture) throws -> [Int] {
        try fixture.db.read {
            try $0.fetchAll(
                Int.self,
                "SELECT length(CAST(text AS BLOB)) FROM article_chunks WHERE articleId = 1 ORDER BY position"
            )
        }
    }

    @Test func typingUndoAndRedoInALongBodyKeepEveryEditorExact() throws {
        let fixture = try AppFixture(articles: 1, size: Size(width: 100, height: 20))
        try fixture.db.write { try Notebook.updateBody($0, ofArticle: 1, to: Self.original) }
        fixture.press(.enter)  // pane 1 opens the article
        fixture.press(.control("w"), .enter, .control("w"))  // so does pane 2
        for _ in 0..<400 { fixture.press(.down) }
        let panes = fixture.app.panes
        func expectEditorsShowStored(_ context: String) throws {
            let body = try stored(fixture)
            #expect(panes[0].editor?.body.text == body, "pane 1, \(context)")
            #expect(panes[1].editor?.body.text == body, "pane 2, \(context)")
        }
        // Three runs of typing, ended by cursor moves; the second long enough to cut its chunk.
        let runs = [
            String(repeating: "typed ", count: 20), String(repeating: "more ", count: 400), "last",
        ]
        var versions = [Self.original]
        for (index, run) in runs.enumerated() {
            fixture.type(run)
            fixture.press(.left, .right)
            versions.append(try #require(try stored(fixture)))
            try expectEditorsShowStored("after typing \(run.prefix(6))")
            // Each run is one step, the one that cut its chunk included.
            #expect(panes[0].stack?.state.undo.count == index + 1)
        }
        #expect(
            versions[3].utf8.count == Self.original.utf8.count + runs.map(\.utf8.count).reduce(0, +)
        )
        #expect(try chunkLengths(fixture).allSatisfy { $0 <= 2048 })
        #expect(try chunkLengths(fixture).count > 40)
        for version in versions.dropLast().reversed() {
            fixture.press(.control("z"))
            #expect(try stored(fixture) == version)
            try expectEditorsShowStored("after an undo")
        }
        for version in versions.dropFirst() {
            fixture.press(.control("y"))
            #expect(try stored(fixture) == version)
            try expectEditorsShowStored("after a redo")
        }
        // Typing goes on where the last redo put the cursor, into the chunks as they are now.
        fixture.type("!")
        #expect(try stored(fixture)?.utf8.count == versions[3].utf8.count + 1)
        try expectEditorsShowStored("after typing on")
    }

    /// A body another program wrote whole through the `articles` view is one chunk: opening it
    /// cuts it, recording nothing and keeping `updatedAt`, so the first key typed into it keeps
    /// a few hundred bytes of history, not the whole body.
    @Test func aBodyWrittenWholeElsewhereIsCutWhenItOpens() throws {
        let fixture = try AppFixture(articles: 1, size: Size(width: 100, height: 20))
        try fixture.db.write { db in
            try db.execute(
                "UPDATE articles SET body = ?, updatedAt = '2026-01-01T00:00:00.000Z' WHERE id = 1",
                [.text(Self.original)])
        }
        #expect(try chunkLengths(fixture) == [Self.original.utf8.count])
        fixture.press(.enter)
        #expect(try chunkLengths(fixture).allSatisfy { $0 <= 1024 })
        #expect(try stored(fixture) == Self.original)
        #expect(
            try fixture.db.read { try Notebook.article($0, id: 1)?.updatedAt }
                == "2026-01-01T00:00:00.000Z")
        #expect(fixture.app.panes[0].stack?.canUndo == false)
        for _ in 0..<400 { fixture.press(.down) }
        fixture.type("x")
        let logBytes = try fixture.db.read { db in
            try db.fetchOne(
                Int.self,
                """
                SELECT sum(coalesce(length(CAST(o0 AS BLOB)), 0) + coalesce(length(CAST(n0 AS BLOB)), 0)
                    + coalesce(length(CAST(o1 AS BLOB)), 0) + coalesce(length(CAST(n1 AS BLOB)), 0)
                    + coalesce(length(CAST(o2 AS BLOB)), 0) + coalesce(length(CAST(n2 AS BLOB)), 0)
                    + coalesce(length(CAST(o3 AS BLOB)), 0) + coalesce(length(CAST(n3 AS BLOB)), 0)
                    + coalesce(length(splice), 0))
                FROM sqliteundo_log
                """)
        }
        #expect((logBytes ?? 0) < 2048, "\(logBytes ?? 0) bytes of history for one key")
        #expect(try stored(fixture)?.utf8.count == Self.original.utf8.count + 1)
    }
}
