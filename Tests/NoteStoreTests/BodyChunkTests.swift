import Foundation
import NoteStore
import SQLiteDatabase
import Testing

/// Bodies are stored as chunks of about a kilobyte: whole articles read back byte for byte, an
/// edit writes only the chunks it touches, and search still finds words anywhere in a body.
@Suite struct BodyChunkTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    /// A chunk as stored: id, position, bytes.
    struct Chunk: Equatable {
        let id: Int64
        let position: Int64
        let text: [UInt8]
    }

    func chunks(of article: Int64) throws -> [Chunk] {
        try db.read { db throws in
            try db.fetchAll(
                Row.self,
                """
                SELECT id, position, CAST(text AS BLOB) FROM article_chunks WHERE articleId = ?
                ORDER BY position, id
                """, [.integer(article)]
            ).map { row in
                guard case .blob(let bytes) = row[2] else {
                    return Chunk(id: 0, position: 0, text: [])
                }
                return Chunk(
                    id: try row.decode(at: 0), position: try row.decode(at: 1), text: bytes)
            }
        }
    }

    func body(of article: Int64) throws -> String? {
        try db.read { try Notebook.article($0, id: article)?.body }
    }

    /// Lines of words, with an emoji, `count` bytes or a little more.
    static func lines(_ count: Int, word: String = "lorem") -> String {
        let line = "\(word) ipsum dolor sit amet, 😀 consectetur adipiscing elit.\n"
        return String(repeating: line, count: count / line.utf8.count + 1)
    }

    @Test func aLongBodyIsCutAfterNewlinesAndReadBackWhole() throws {
        let text = Self.lines(100_000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        let stored = try chunks(of: id)
        #expect(stored.count > 90)
        #expect(stored.allSatisfy { $0.text.count <= 1024 && $0.text.last == UInt8(ascii: "\n") })
        #expect(stored.flatMap(\.text) == Array(text.utf8))
        #expect(try body(of: id) == text)
        #expect(try db.read { try $0.fetchOne(String.self, "SELECT body FROM articles") } == text)
    }

    @Test func aLineLongerThanAChunkIsCutAfterSpacesAndTextWithoutThemBetweenCharacters() throws {
        let spaced = String(repeating: "word ", count: 1000)
        let unspaced = String(repeating: "搬家到成都了😀", count: 400)
        let ids = try db.write { db throws in
            [
                try Notebook.insertArticle(db, title: "Spaced", body: spaced),
                try Notebook.insertArticle(db, title: "Unspaced", body: unspaced),
            ]
        }
        let spacedChunks = try chunks(of: ids[0])
        #expect(spacedChunks.count == 5)
        #expect(spacedChunks.allSatisfy { $0.text.last == UInt8(ascii: " ") })
        let unspacedChunks = try chunks(of: ids[1])
        #expect(unspacedChunks.count > 5)
        // Every chunk is whole characters.
        #expect(
            unspacedChunks.allSatisfy { String(validating: $0.text, as: UTF8.self) != nil })
        #expect(try body(of: ids[0]) == spaced)
        #expect(try body(of: ids[1]) == unspaced)
    }

    @Test func anEditWritesOnlyTheChunkItTouches() throws {
        let text = Self.lines(100_000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        let before = try chunks(of: id)
        var edited = text
        let middle = edited.utf8.index(edited.utf8.startIndex, offsetBy: 50_000)
        edited.insert(contentsOf: "TYPED", at: middle)
        var layout: BodyLayout?
        let written = try db.write { db throws in
            try Notebook.updateBody(db, ofArticle: id, from: text, to: edited, layout: &layout)
        }
        #expect(written)
        let after = try chunks(of: id)
        #expect(after.map(\.id) == before.map(\.id))
        let changed = zip(before, after).filter { $0.0 != $0.1 }
        #expect(changed.count == 1)
        #expect(try body(of: id) == edited)
    }

    @Test func aChunkThatGrowsIsCutAgainAndOrderIsKept() throws {
        let text = Self.lines(10_000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        var body = text
        // The layout the last write left is what the next one starts from.
        var layout: BodyLayout?
        // 40 pastes of 3 KB at one place: more pieces than the gap between two chunks holds,
        // so the article's chunks are renumbered on the way.
        for round in 0..<40 {
            let paste = Self.lines(3000, word: "paste\(round)")
            let place = body.utf8.index(body.utf8.startIndex, offsetBy: 5000 - 5000 % 66)
            var next = body
            next.insert(contentsOf: paste, at: place)
            let written = try db.write { db throws in
                try Notebook.updateBody(db, ofArticle: id, from: body, to: next, layout: &layout)
            }
            #expect(written)
            body = next
        }
        let stored = try chunks(of: id)
        #expect(stored.allSatisfy { $0.text.count <= 2048 })
        #expect(Set(stored.map(\.position)).count == stored.count)
        #expect(try self.body(of: id) == body)
        try db.checkSearchIndexes()
    }

    @Test func joiningTwoLinesAcrossChunksKeepsTheJoinedWordSearchable() throws {
        // The first chunk ends with "…elit.\n"; deleting that newline joins "elit." and the
        // next line's first word.
        let text = Self.lines(5000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        let first = try chunks(of: id)[0].text.count
        var joined = Array(text.utf8)
        joined.replaceSubrange((first - 1)..<first, with: Array("zz".utf8))
        let edited = String(decoding: joined, as: UTF8.self)
        var layout: BodyLayout?
        let written = try db.write { db throws in
            try Notebook.updateBody(db, ofArticle: id, from: text, to: edited, layout: &layout)
        }
        #expect(written)
        #expect(try body(of: id) == edited)
        #expect(try db.listedIds("elit.zzlorem") == [id])
        try db.checkSearchIndexes()
    }

    @Test func anEditFromATextThatIsNoLongerStoredWritesNothing() throws {
        let text = Self.lines(5000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        let before = try chunks(of: id)
        // Someone changed the end: an edit there from the text before is refused, whether the
        // length changed or not.
        for stale in [text.dropLast(10) + "0123456789", text + "more"] {
            var layout: BodyLayout?
            let written = try db.write { db throws in
                try Notebook.updateBody(
                    db, ofArticle: id, from: stale, to: stale + "x", layout: &layout)
            }
            #expect(!written)
        }
        #expect(try chunks(of: id) == before)
        #expect(throws: NotebookError.articleNotFound(id: 99)) {
            try db.write { db throws in
                var layout: BodyLayout?
                _ = try Notebook.updateBody(db, ofArticle: 99, from: "", to: "x", layout: &layout)
            }
        }
    }

    /// An editor's layout, kept between keystrokes, while another program edits the body: an
    /// edit elsewhere is kept (merged), an edit of the same chunk is refused, and the layout is
    /// read again after either.
    @Test func aKeptLayoutFollowsAnotherProgramsEdits() throws {
        let text = Self.lines(20_000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        var layout: BodyLayout?
        var mine = text
        func type(_ word: String, at offset: Int) throws -> Bool {
            var next = mine
            next.insert(
                contentsOf: word, at: next.utf8.index(next.utf8.startIndex, offsetBy: offset))
            let written = try db.write { db throws in
                try Notebook.updateBody(db, ofArticle: id, from: mine, to: next, layout: &layout)
            }
            if written { mine = next }
            return written
        }
        #expect(try type("MINE1 ", at: 15_000))
        #expect(layout != nil)
        // Another program inserts a line near the start: the body is longer than mine.
        let first = try chunks(of: id)[0]
        try db.write { db throws in
            try db.execute(
                "UPDATE article_chunks SET text = 'THEIRS ' || text WHERE id = ?",
                [.integer(first.id)])
        }
        #expect(try type("MINE2 ", at: 16_000))
        var expected = Array(mine.utf8)
        expected.insert(contentsOf: Array("THEIRS ".utf8), at: 0)
        #expect(try body(of: id).map { Array($0.utf8) } == expected)
        // Typed into the chunk they changed, from my text without theirs: refused.
        #expect(try !type("MINE3 ", at: 10))
        #expect(layout == nil)
        #expect(try body(of: id).map { Array($0.utf8) } == expected)
    }

    /// `bodyChange` reads the chunks that differ from a layout, and those named rewritten: a
    /// chunk rewritten to the same length is found only by its name.
    @Test func aBodyChangeReadsOnlyTheChunksThatChanged() throws {
        let text = Self.lines(20_000)
        let id = try db.write { try Notebook.insertArticle($0, title: "Long", body: text) }
        let layout = try #require(try db.read { try Notebook.bodyLayout($0, ofArticle: id) })
        let chunks = try chunks(of: id)
        // Someone rewrites chunk 5 to the same length, and deletes chunk 9.
        let fifth = chunks[5]
        let replacement = String(repeating: "Z", count: fifth.text.count)
        try db.write { db throws in
            try db.execute(
                "UPDATE article_chunks SET text = ? WHERE id = ?",
                [.text(replacement), .integer(fifth.id)])
            try db.execute("DELETE FROM article_chunks WHERE id = ?", [.integer(chunks[9].id)])
        }
        let start = chunks[..<5].reduce(0) { $0 + $1.text.count }
        let end = chunks[..<10].reduce(0) { $0 + $1.text.count }
        let change = try #require(
            try db.read {
                try Notebook.bodyChange($0, ofArticle: id, since: layout, rewritten: [fifth.id])
            })
        #expect(change.replaced == start..<end)
        let between = chunks[6..<9].flatMap(\.text)
        #expect(Array(change.text.utf8) == Array(replacement.utf8) + between)
        var spliced = Array(text.utf8)
        spliced.replaceSubrange(change.replaced, with: Array(change.text.utf8))
        #expect(try body(of: id).map { Array($0.utf8) } == spliced)
        #expect(change.layout == (try db.read { try Notebook.bodyLayout($0, ofArticle: id) }))
        // Not named, the same-length rewrite is not seen: only the deleted chunk is.
        let unnamed = try #require(
            try db.read { try Notebook.bodyChange($0, ofArticle: id, since: layout, rewritten: []) }
        )
        #expect(unnamed.replaced == chunks[..<9].reduce(0) { $0 + $1.text.count }..<end)
        #expect(unnamed.text == "")
        #expect(
            try db.read { try Notebook.bodyChange($0, ofArticle: 99, since: layout, rewritten: []) }
                == nil)
    }

    @Test func aWordIsFoundInAnyChunkAndAllWordsAcrossChunksAndTitle() throws {
        let text = "alpha first line\n" + Self.lines(50_000) + "omega last line\n"
        let id = try db.write { db throws in
            _ = try Notebook.insertArticle(db, title: "Other", body: "alpha only")
            return try Notebook.insertArticle(db, title: "Gamma", body: text)
        }
        #expect(try chunks(of: id).count > 40)
        #expect(try db.listedIds("omega") == [id])
        #expect(try db.listedIds("alpha omega gamma") == [id])
        #expect(try db.listedIds("alpha zulu") == [])
        #expect(try db.listedIds("alpha", order: .relevance).sorted() == [1, id])
    }

    @Test func emptyingABodyDeletesItsChunks() throws {
        let id = try db.write { try Notebook.insertArticle($0, title: "T", body: Self.lines(3000)) }
        try db.write { try Notebook.updateBody($0, ofArticle: id, to: "") }
        #expect(try chunks(of: id) == [])
        #expect(try body(of: id) == "")
        try db.write { try Notebook.updateBody($0, ofArticle: id, to: "back") }
        #expect(try body(of: id) == "back")
    }

    /// A notebook of the version that kept bodies in the articles table: the migration cuts
    /// them into chunks and keeps every byte, text that is not UTF-8 included, and the rows
    /// another program left outside the schema's rules.
    @Test func theMigrationCutsExistingBodiesAndKeepsEveryByte() throws {
        let long = Self.lines(20_000)
        let db = try makeNotebook(
            through: "notestore-8-substring-search",
            articles: [("Long", long), ("Short", "short"), ("Empty", "")])
        try db.write { db throws in
            try db.execute(
                "INSERT INTO articles(title, body) VALUES ('Bytes', CAST(X'61FF0A62C3' AS TEXT))")
            try db.execute("PRAGMA ignore_check_constraints = ON")
            try db.execute("INSERT INTO articles(title, body, rating) VALUES ('Rated 9', 'x', 9)")
            try db.execute("PRAGMA ignore_check_constraints = OFF")
        }
        let before = try db.read { db throws in
            try db.fetchAll(
                String.self,
                "SELECT id || ' ' || title || ' ' || hex(body) || ' ' || rating FROM articles ORDER BY id"
            )
        }
        try NoteStoreSchema.migrate(db)
        let after = try db.read { db throws in
            try db.fetchAll(
                String.self,
                "SELECT id || ' ' || title || ' ' || hex(body) || ' ' || rating FROM articles ORDER BY id"
            )
        }
        #expect(after == before)
        #expect(
            try db.read {
                try $0.fetchOne(Int.self, "SELECT count(*) FROM article_chunks WHERE articleId = 1")
            }
                ?? 0 > 15)
        #expect(try db.listedIds("consectetur") == [1])
        try db.checkSearchIndexes()
    }
}
