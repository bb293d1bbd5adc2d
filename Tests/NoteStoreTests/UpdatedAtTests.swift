import Foundation
import NoteStore
import SQLiteDatabase
import Testing

@Suite struct UpdatedAtTests {
    let db: DatabaseQueue
    let id: Int64
    let authorId: Int64
    static let old = "2001-02-03T04:05:06.789Z"
    var old: String { Self.old }

    init() throws {
        db = try makeNotebook()
        (id, authorId) = try db.write { db throws in
            let authorId = try Notebook.insertAuthor(db, name: "Ada")
            let id = try Notebook.insertArticle(db, title: "Title", body: "Body", authorId: nil)
            try db.setDates(ofArticle: id, created: Self.old, updated: Self.old)
            return (id, authorId)
        }
    }

    func article() throws -> Article? {
        try db.read { try Notebook.article($0, id: id) }
    }

    @Test func insertDatesTheArticleNow() throws {
        let startedAt = try db.read { try $0.fetchOne(String.self, "SELECT \(now)") } ?? ""
        let newId = try db.write { try Notebook.insertArticle($0, title: "New") }
        let article = try #require(try db.read { try Notebook.article($0, id: newId) })
        #expect(isTimestamp(article.createdAt))
        #expect(article.createdAt >= startedAt)
        #expect(article.updatedAt == article.createdAt)
        #expect(
            article
                == Article(
                    id: newId, authorId: nil, title: "New", body: "", rating: 0,
                    createdAt: article.createdAt, updatedAt: article.createdAt))
    }

    @Test(arguments: ["title", "body", "rating", "author"])
    func editBumpsUpdatedAtAndNothingElse(field: String) throws {
        let before = try #require(try article())
        var expected = before
        try db.write { db throws in
            switch field {
            case "title":
                try Notebook.updateTitle(db, ofArticle: id, to: "New title")
                expected.title = "New title"
            case "body":
                try Notebook.updateBody(db, ofArticle: id, to: "New\tbody\n")
                expected.body = "New\tbody\n"
            case "rating":
                try Notebook.setRating(db, ofArticle: id, to: 4)
                expected.rating = 4
            default:
                try Notebook.setAuthor(db, ofArticle: id, to: authorId)
                expected.authorId = authorId
            }
        }
        let after = try #require(try article())
        #expect(after.updatedAt > old)
        #expect(isTimestamp(after.updatedAt))
        expected.updatedAt = after.updatedAt
        #expect(after == expected)
    }

    @Test func updateThatWritesUpdatedAtKeepsThatExactValue() throws {
        // What an undo replay does: restore the edited columns and updatedAt together.
        try db.write { try Notebook.updateTitle($0, ofArticle: id, to: "Edited") }
        let restored = "1999-12-31T23:59:59.999Z"
        try db.write { db throws in
            try db.execute(
                "UPDATE articles SET title = 'Title', updatedAt = ? WHERE id = ?",
                [.text(restored), .integer(id)])
        }
        #expect(
            try article()
                == Article(
                    id: id, authorId: nil, title: "Title", body: "Body", rating: 0,
                    createdAt: old, updatedAt: restored))
    }

    @Test func editsAreStampedWithTheTimeTheyAreGiven() throws {
        let time = Date(timeIntervalSince1970: 1_893_553_445.678)  // 2030-01-02T03:04:05.678Z
        let later = time.addingTimeInterval(60)
        let newId = try db.write { db throws in
            try Notebook.updateBody(db, ofArticle: id, to: "Edited", at: time)
            return try Notebook.insertArticle(db, title: "New", at: later)
        }
        #expect(
            try article()
                == Article(
                    id: id, authorId: nil, title: "Title", body: "Edited", rating: 0,
                    createdAt: old, updatedAt: "2030-01-02T03:04:05.678Z"))
        let new = try db.read { try Notebook.article($0, id: newId) }
        #expect(new?.createdAt == "2030-01-02T03:05:05.678Z")
        #expect(new?.updatedAt == "2030-01-02T03:05:05.678Z")
        // Setting the value it has is still no edit.
        try db.write { try Notebook.updateBody($0, ofArticle: id, to: "Edited", at: later) }
        #expect(try article()?.updatedAt == "2030-01-02T03:04:05.678Z")
    }

    @Test func editThatChangesNothingKeepsUpdatedAt() throws {
        let before = try article()
        try db.write { db throws in
            try Notebook.setRating(db, ofArticle: id, to: 0)
            try Notebook.updateTitle(db, ofArticle: id, to: "Title")
        }
        #expect(try article() == before)
    }

    @Test func outOfRangeRatingIsATypedErrorAndChangesNothing() throws {
        let before = try article()
        for rating in [-1, 6, Int.max] {
            #expect(throws: NotebookError.ratingOutOfRange(rating)) {
                try db.write { try Notebook.setRating($0, ofArticle: id, to: rating) }
            }
        }
        #expect(try article() == before)
        #expect(
            NotebookError.ratingOutOfRange(6).description
                == "a rating is from 0 to 5, not 6; nothing was changed")
    }

    @Test func editsOfMissingRowsAreTypedErrors() throws {
        #expect(throws: NotebookError.articleNotFound(id: 999)) {
            try db.write { try Notebook.updateTitle($0, ofArticle: 999, to: "x") }
        }
        #expect(throws: NotebookError.articleNotFound(id: 999)) {
            try db.write { try Notebook.deleteArticle($0, id: 999) }
        }
        #expect(throws: NotebookError.authorNotFound(id: 999)) {
            try db.write { try Notebook.setAuthor($0, ofArticle: id, to: 999) }
        }
        #expect(throws: NotebookError.authorNotFound(id: 999)) {
            try db.write { try Notebook.insertArticle($0, title: "x", authorId: 999) }
        }
        #expect(throws: NotebookError.authorNotFound(id: 999)) {
            try db.write { try Notebook.renameAuthor($0, id: 999, to: "x") }
        }
        #expect(throws: NotebookError.authorNotFound(id: 999)) {
            try db.write { try Notebook.deleteAuthor($0, id: 999) }
        }
    }

    @Test func deletingAnAuthorDeletesTheirArticles() throws {
        let (kept, gone) = try db.write { db throws in
            let other = try Notebook.insertAuthor(db, name: "Bea")
            try Notebook.setAuthor(db, ofArticle: id, to: authorId)
            let kept = try Notebook.insertArticle(db, title: "Bea's", authorId: other)
            let gone = try Notebook.insertArticle(db, title: "Ada's", authorId: authorId)
            try Notebook.renameAuthor(db, id: other, to: "Béatrice")
            try Notebook.deleteAuthor(db, id: authorId)
            return (kept, gone)
        }
        try db.read { db throws in
            #expect(try Notebook.article(db, id: gone) == nil)
            #expect(try Notebook.article(db, id: id) == nil)
            #expect(try Notebook.page(db, ArticleQuery(), offset: 0, limit: 10).map(\.id) == [kept])
            #expect(try Notebook.authors(db, matching: "").map(\.name) == ["Béatrice"])
        }
    }
}

/// The SQL the schema uses for "now", to read the clock the way triggers do.
let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
