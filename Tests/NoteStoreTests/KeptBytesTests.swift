import Foundation
import NoteStore
import SQLiteDatabase
import TestSupport
import Testing

/// Text another program stored with bytes that are not UTF-8: the app reads each ill-formed
/// sequence as U+FFFD, and an edit of the text as read keeps every byte it did not touch.
@Suite struct KeptBytesTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    /// A piece of stored text: its bytes, and its length as read (3 for each U+FFFD).
    struct Piece {
        let stored: [UInt8]
        let readLength: Int

        /// Whether the piece is an ill-formed sequence.
        var illFormed: Bool { readLength != stored.count }
    }

    /// Ill-formed sequences: 0xFF, an overlong '/' (two sequences), a surrogate (three, two of
    /// them lone continuation bytes), a sequence cut short. Each starts with a byte that cannot
    /// continue another, so each reads the same wherever it lands.
    static let illFormed: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82]]
    static let words = ["lorem ", "ipsum\n", "é", "😀", "日本", "\t", "x"]

    /// About `count` bytes of words with ill-formed sequences between them, as pieces.
    static func pieces(_ count: Int, _ random: inout SeededRandom) -> [Piece] {
        var pieces: [Piece] = []
        var length = 0
        while length < count {
            let bad = random.next(below: 6) == 0
            let bytes =
                bad
                ? illFormed[random.next(below: illFormed.count)]
                : Array(words[random.next(below: words.count)].utf8)
            let readLength = String(decoding: bytes, as: UTF8.self).utf8.count
            pieces.append(Piece(stored: bytes, readLength: readLength))
            length += bytes.count
        }
        return pieces
    }

    /// The article's body or title as stored, byte for byte.
    func stored(_ column: String, of id: Int64) throws -> [UInt8] {
        let value = try db.read { db throws in
            try db.fetchOne(
                SQLiteValue.self, "SELECT CAST(\(column) AS BLOB) FROM articles WHERE id = ?",
                [.integer(id)])
        }
        guard case .blob(let bytes) = value else { return [] }
        return bytes
    }

    /// Writes `bytes` as another program would: through the `articles` view, as text.
    func storeAsAnotherProgram(_ column: String, of id: Int64, _ bytes: [UInt8]) throws {
        try db.write { db throws in
            try db.execute(
                "UPDATE articles SET \(column) = CAST(? AS TEXT) WHERE id = ?",
                [.blob(bytes), .integer(id)])
            try Notebook.cutLongChunks(db, ofArticle: id)
        }
    }

    /// Random edits of a body of several chunks, as the editor makes them: the text as read is
    /// edited between two characters, written as a keystroke is (from the text read), and
    /// then whole when the chunks do not hold what was read. Each time, the body is the
    /// stored bytes before the edit, the typed text, and the stored bytes after it.
    ///
    /// The edit is told from the text as read, by its common start and end: deleting one of
    /// three U+FFFDs in a row deletes the last one's bytes, whichever was meant.
    @Test func randomEditsKeepEveryByteOutsideTheEdit() throws {
        var random = SeededRandom(seed: 7)
        var pieces = Self.pieces(6_000, &random)
        let id = try db.write { try Notebook.insertArticle($0, title: "Bytes", body: "") }
        try storeAsAnotherProgram("body", of: id, pieces.flatMap(\.stored))
        let chunkCount = try db.read { db throws in
            try db.fetchOne(
                Int.self, "SELECT count(*) FROM article_chunks WHERE articleId = ?",
                [.integer(id)])
        }
        #expect(chunkCount ?? 0 > 3)
        for _ in 0..<200 {
            let start = random.next(below: pieces.count + 1)
            let end = min(pieces.count, start + random.next(below: 4))
            // Deleting some of a run of ill-formed sequences deletes U+FFFDs from a run of them,
            // and which of the run's bytes go cannot be told from the text: a rule this test
            // does not draw.
            let run = { (index: Int) in pieces.indices.contains(index) && pieces[index].illFormed }
            if pieces[start..<end].contains(where: \.illFormed), run(start - 1) || run(end) {
                continue
            }
            let typed = (0..<random.next(below: 3)).map { _ in
                Self.words[random.next(below: Self.words.count)]
            }.joined()
            let read = try #require(try db.read { try Notebook.article($0, id: id) }?.body)
            var text = Array(read.utf8)
            let readStart = pieces[..<start].reduce(0) { $0 + $1.readLength }
            let readEnd = readStart + pieces[start..<end].reduce(0) { $0 + $1.readLength }
            text.replaceSubrange(readStart..<readEnd, with: Array(typed.utf8))
            let edited = String(decoding: text, as: UTF8.self)
            try db.write { db throws in
                var layout: BodyLayout?
                if try !Notebook.updateBody(
                    db, ofArticle: id, from: read, to: edited, layout: &layout)
                {
                    try Notebook.updateBody(db, ofArticle: id, to: edited)
                }
            }
            pieces.replaceSubrange(
                start..<end,
                with: typed.isEmpty
                    ? [] : [Piece(stored: Array(typed.utf8), readLength: typed.utf8.count)])
            #expect(try stored("body", of: id) == pieces.flatMap(\.stored))
            #expect(try db.read { try Notebook.article($0, id: id) }?.body == edited)
        }
        try db.checkSearchIndexes()
    }

    /// A title: typing at its end keeps the ill-formed bytes before; deleting the U+FFFD that
    /// stands for one deletes its bytes.
    @Test func aTitleKeepsItsBytesOutsideTheEdit() throws {
        let id = try db.write { try Notebook.insertArticle($0, title: "", body: "") }
        try storeAsAnotherProgram(
            "title", of: id, Array("Bad ".utf8) + [0xFF, 0xC0, 0xAF] + Array(" x".utf8))
        let read = try #require(try db.read { try Notebook.article($0, id: id) }?.title)
        #expect(read == "Bad \u{FFFD}\u{FFFD}\u{FFFD} x")
        try db.write { try Notebook.updateTitle($0, ofArticle: id, to: read + "!") }
        #expect(
            try stored("title", of: id) == Array("Bad ".utf8) + [0xFF, 0xC0, 0xAF]
                + Array(" x!".utf8))
        try db.write { try Notebook.updateTitle($0, ofArticle: id, to: "Bad \u{FFFD}\u{FFFD} x!") }
        #expect(
            try stored("title", of: id) == Array("Bad ".utf8) + [0xFF, 0xC0] + Array(" x!".utf8))
        // Bytes that would read otherwise once joined: "E2" then "x" then "82 AC" reads as
        // "\u{FFFD}x\u{FFFD}\u{FFFD}"; deleting "x" keeping both sides would store "€". The
        // edited text is written as it is then.
        try storeAsAnotherProgram("title", of: id, [0xE2] + Array("x".utf8) + [0x82, 0xAC])
        let joined = try #require(try db.read { try Notebook.article($0, id: id) }?.title)
        #expect(joined == "\u{FFFD}x\u{FFFD}\u{FFFD}")
        try db.write { try Notebook.updateTitle($0, ofArticle: id, to: "\u{FFFD}\u{FFFD}\u{FFFD}") }
        #expect(
            try db.read { try Notebook.article($0, id: id) }?.title == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(try stored("title", of: id) == Array("\u{FFFD}\u{FFFD}\u{FFFD}".utf8))
        // A title replaced whole is written as it is, U+FFFD included.
        try db.write { try Notebook.updateTitle($0, ofArticle: id, to: "Good \u{FFFD}") }
        #expect(try stored("title", of: id) == Array("Good \u{FFFD}".utf8))
    }
}
