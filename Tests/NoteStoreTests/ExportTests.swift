import Foundation
import NoteStore
import SQLiteDatabase
import Testing

@Suite struct ExportTests {
    let db: DatabaseQueue

    /// Text that breaks naive escaping: tabs, newlines, quotes, backslashes, NUL, line
    /// separators, combining accents, CJK and emoji sequences.
    static let trickyTitle = "Tab\there \"quoted\" back\\slash 東京 🎉"
    static let trickyBody =
        "Line one\n\tindented\r\nNUL:\u{0}:end \u{2028} e\u{301} </script> 👨‍👩‍👧 {\"json\": [1]}\n"

    init() throws {
        db = try makeNotebook()
        try db.write { db throws in
            let ada = try Notebook.insertAuthor(db, name: "Ada \"the first\" Lovelace")
            let first = try Notebook.insertArticle(
                db, title: "First note", body: "Line one\n\tindented \"quoted\" 🎉\nend",
                authorId: ada)
            try Notebook.setRating(db, ofArticle: first, to: 3)
            try db.setDates(
                ofArticle: first, created: "2024-01-02T03:04:05.006Z",
                updated: "2024-02-03T04:05:06.007Z")
            let second = try Notebook.insertArticle(db, title: "Second\nline title", body: "")
            try db.setDates(
                ofArticle: second, created: "2024-03-04T05:06:07.008Z",
                updated: "2024-03-04T05:06:07.008Z")
        }
    }

    @Test func markdownHasOneSectionPerArticle() throws {
        #expect(
            try db.read { try NotebookExport.markdown($0).text } == """
                # Notebook

                ## First note

                - Author: Ada "the first" Lovelace
                - Rating: 3/5
                - Created: 2024-01-02T03:04:05.006Z
                - Updated: 2024-02-03T04:05:06.007Z

                Line one
                \tindented "quoted" 🎉
                end

                ## Second line title

                - Author: none
                - Rating: 0/5
                - Created: 2024-03-04T05:06:07.008Z
                - Updated: 2024-03-04T05:06:07.008Z

                """)
    }

    @Test func jsonHasTheDocumentedShape() throws {
        #expect(
            try db.read { try NotebookExport.json($0).text } == """
                {
                  "articles" : [
                    {
                      "author" : {
                        "id" : 1,
                        "name" : "Ada \\"the first\\" Lovelace"
                      },
                      "body" : "Line one\\n\\tindented \\"quoted\\" 🎉\\nend",
                      "createdAt" : "2024-01-02T03:04:05.006Z",
                      "id" : 1,
                      "rating" : 3,
                      "title" : "First note",
                      "updatedAt" : "2024-02-03T04:05:06.007Z"
                    },
                    {
                      "author" : null,
                      "body" : "",
                      "createdAt" : "2024-03-04T05:06:07.008Z",
                      "id" : 2,
                      "rating" : 0,
                      "title" : "Second\\nline title",
                      "updatedAt" : "2024-03-04T05:06:07.008Z"
                    }
                  ],
                  "authors" : [
                    {
                      "id" : 1,
                      "name" : "Ada \\"the first\\" Lovelace"
                    }
                  ]
                }

                """)
    }

    /// The JSON shape, for decoding in tests.
    struct Decoded: Decodable, Equatable {
        struct Author: Decodable, Equatable {
            let id: Int64
            let name: String
        }
        struct Article: Decodable, Equatable {
            let id: Int64
            let title: String
            let body: String
            let rating: Int
            let author: Author?
            let createdAt: String
            let updatedAt: String
        }
        let articles: [Article]
        let authors: [Author]
    }

    @Test func jsonRoundTripsEveryCharacter() throws {
        let id = try db.write { db throws in
            let author = try Notebook.insertAuthor(db, name: Self.trickyTitle)
            return try Notebook.insertArticle(
                db, title: Self.trickyTitle, body: Self.trickyBody, authorId: author)
        }
        let text = try db.read { try NotebookExport.json($0).text }
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(text.utf8))
        let stored = try #require(try db.read { try Notebook.article($0, id: id) })
        #expect(
            decoded.articles.last
                == Decoded.Article(
                    id: id, title: Self.trickyTitle, body: Self.trickyBody, rating: 0,
                    author: Decoded.Author(id: 2, name: Self.trickyTitle),
                    createdAt: stored.createdAt, updatedAt: stored.updatedAt))
        #expect(decoded.articles.map(\.id) == [1, 2, id])
        #expect(decoded.authors.map(\.id) == [1, 2])
        // Byte for byte, not just equal as Swift strings (which compare canonically).
        #expect(Array(try #require(decoded.articles.last).body.utf8) == Array(Self.trickyBody.utf8))

        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let articles = try #require(object?["articles"] as? [[String: Any]])
        #expect(articles.last?["title"] as? String == Self.trickyTitle)
        #expect(articles.last?["body"] as? String == Self.trickyBody)
        #expect(articles.first?["author"] is [String: Any])
        #expect(articles[1]["author"] is NSNull)
    }
}
