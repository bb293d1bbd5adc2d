import NoteStore
import SQLiteDatabase
import Testing

@Suite struct SearchTests {
    let db: DatabaseQueue

    /// Ids of the articles below, in insertion order (1...9).
    init() throws {
        db = try makeNotebook(articles: Self.articles)
    }

    static let articles = [
        ("Quotes", "She said \"hello world\" to everyone."),
        ("Operators", "NEAR the river AND the sea OR NOT at all"),
        ("SQL", "Never run '; DROP TABLE articles; -- on production"),
        ("Plain", "nothing special here"),
        ("東京の夜", "今日は東京で会議がありました。"),
        ("Party 🎉 time", "Fête réussie 🎂 avec des amis"),
        ("Crème brûlée", "Résumé of the café"),
        ("读书会", "我们讨论了一本书"),
        ("River notes", "river river, the river again"),
    ]

    func ids(_ search: String, order: ArticleQuery.Order = .updatedDescending) throws -> [Int64] {
        try db.listedIds(search, order: order)
    }

    static let hostile: [(String, [Int64])] = [
        ("\"hello", [1]),
        ("hello\"", [1]),
        ("\"", []),
        ("\"\"\"", []),
        ("*", []),
        ("hello*", [1]),
        ("NEAR", [2]),
        ("NEAR(hello world)", []),
        ("hello NEAR/2 world", []),
        ("AND", [2]),
        ("OR", [2]),
        ("NOT", [9, 4, 2]),  // "notes" and "nothing" start with "not"
        ("hello OR river", []),
        ("NOT hello", []),
        ("-", []),
        ("-hello", [1]),
        ("hello -world", [1]),
        (":", []),
        ("title:Quotes", []),
        ("{title body}:hello", []),
        ("^hello", [1]),
        ("(", []),
        ("(hello", [1]),
        ("hello)", [1]),
        ("((hello", [1]),
        (")(", []),
        ("'; DROP TABLE articles; --", [3]),
        ("'", []),
        ("\\", []),
        ("%", []),
        ("_", []),
        ("hello\u{0}world", [1]),
        ("\u{0}\u{1}", Array((1...9).reversed())),  // control characters only: like whitespace
        ("+ hello", [1]),
        // A quote joined by a combining mark or a joiner is one Character with it (fuzzing).
        ("\"\u{200D}hello", [1]),
        ("hello\"\u{301} OR world", []),
        (".\u{7F}\u{200D}😀\u{301}\"\u{200D}.\u{1B}a5ß.\u{301}", []),
    ]

    @Test(arguments: hostile)
    func hostileTextIsSearchedAsText(search: String, expected: [Int64]) throws {
        #expect(try ids(search) == expected)
        for order in ArticleQuery.Order.allCases {
            #expect(try ids(search, order: order).sorted() == expected.sorted())
        }
        // Nothing was executed as SQL: every article is still there.
        #expect(try ids("") == Array((1...9).reversed()))
    }

    static let wide: [(String, [Int64])] = [
        ("東京", [5]),
        ("東", [5]),
        ("今日", [5]),
        ("读书", [8]),
        ("我们", [8]),
        ("🎉", [6]),
        ("🎂", [6]),
        ("fete", [6]),
        ("FÊTE", [6]),
        ("creme brulee", [7]),
        ("BRÛLÉE", [7]),
        ("cafe", [7]),
        ("résumé", [7]),
        ("Party 🎉", [6]),
    ]

    @Test(arguments: wide)
    func wideCharactersAndAccentsAreFound(search: String, expected: [Int64]) throws {
        #expect(try ids(search) == expected)
    }

    @Test func everyWordMustPrefixAWordInAnyOrder() throws {
        #expect(try ids("riv") == [9, 2])
        #expect(try ids("river sea") == [2])
        #expect(try ids("sea river") == [2])
        #expect(try ids("ver") == [])
        #expect(try ids("hello world") == [1])
        #expect(try ids("  \t\n ") == Array((1...9).reversed()))
    }

    /// A search of any length works: a pasted paragraph of a thousand words, spaced and
    /// unspaced, finds the article that has them all, and nothing once one more word is in
    /// none. (Each word is a condition; SQLite bounds an expression's depth to 1,000.)
    @Test func aSearchOfAThousandWordsFindsTheArticleWithThemAll() throws {
        let words = (1...800).map { "word\($0)" } + (1...200).map { "東京\($0)" }
        let id = try db.write {
            try Notebook.insertArticle($0, title: "Long", body: words.joined(separator: " "))
        }
        let paragraph = words.reversed().joined(separator: " ")
        for order in [ArticleQuery.Order.updatedDescending, .relevance, .title] {
            #expect(try ids(paragraph, order: order) == [id])
            #expect(try ids(paragraph + " river", order: order) == [])
        }
        try db.read { db throws in
            let query = ArticleQuery(order: .relevance, search: paragraph)
            #expect(try Notebook.position(db, ofArticle: id, in: query) == 0)
        }
    }

    /// A paste of more words than a statement can bind (SQLite takes 32,766 parameters)
    /// searches for the first 2,000 (`SearchWords.mostWords`): the article with those is found.
    @Test func aSearchOfMoreWordsThanSQLiteCanBindLooksForTheFirstOnes() throws {
        let words = (1...40_000).map { "w\($0)" }
        let id = try db.write {
            try Notebook.insertArticle(
                $0, title: "Longer", body: words.prefix(2_000).joined(separator: " "))
        }
        #expect(try ids(words.joined(separator: " ")) == [id])
    }

    @Test func relevanceRanksBetterMatchesFirst() throws {
        #expect(try ids("river", order: .relevance) == [9, 2])
        #expect(try ids("river", order: .title) == [2, 9])
        try db.read { db throws in
            let query = ArticleQuery(order: .relevance, search: "river")
            #expect(try Notebook.position(db, ofArticle: 9, in: query) == 0)
            #expect(try Notebook.position(db, ofArticle: 2, in: query) == 1)
            #expect(try Notebook.position(db, ofArticle: 1, in: query) == nil)
        }
        // Without a search, relevance is the most-recently-changed order.
        #expect(try ids("", order: .relevance) == Array((1...9).reversed()))
    }

    @Test func indexFollowsEveryWrite() throws {
        try db.write { db throws in
            try Notebook.updateTitle(db, ofArticle: 4, to: "Zebra crossing")
            try Notebook.updateBody(db, ofArticle: 1, to: "goodbye")
            try Notebook.deleteArticle(db, id: 7)
            try db.execute("UPDATE articles SET id = 100 WHERE id = 8")
        }
        #expect(try ids("zebra") == [4])
        #expect(try ids("plain") == [])
        #expect(try ids("hello") == [])
        #expect(try ids("goodbye") == [1])
        #expect(try ids("cafe") == [])
        #expect(try ids("读书") == [100])
        try db.write { db throws in
            let author = try Notebook.insertAuthor(db, name: "Ada")
            try Notebook.setAuthor(db, ofArticle: 4, to: author)
            try Notebook.deleteAuthor(db, id: author)
        }
        #expect(try ids("zebra") == [])
        try db.checkSearchIndexes()
    }

    /// `REPLACE` (as another program may write it: no recursive triggers) deletes the row in the
    /// way without firing its delete trigger; the words of that row must not stay in the index.
    @Test func indexFollowsReplace() throws {
        try db.write { db throws in
            try db.execute(
                """
                REPLACE INTO articles(id, title, body, createdAt, updatedAt)
                VALUES (4, 'Zebra', 'giraffe', '', '')
                """)
            // "River notes" moves onto the id of "Operators", which goes.
            try db.execute("UPDATE OR REPLACE articles SET id = 2 WHERE id = 9")
        }
        #expect(try ids("plain") == [])
        #expect(try ids("giraffe") == [4])
        #expect(try ids("near") == [])
        #expect(try ids("river") == [2])
        try db.checkSearchIndexes()
    }

    /// A notebook whose index a `REPLACE` left wrong before the triggers followed it is rebuilt
    /// when it is opened.
    @Test func theMigrationRebuildsAnIndexThatReplaceLeftWrong() throws {
        let db = try makeNotebook(through: "notestore-6-article-count", articles: Self.articles)
        try db.write { db throws in
            try db.execute(
                """
                REPLACE INTO articles(id, title, body, createdAt, updatedAt)
                VALUES (4, 'Zebra', 'giraffe', '', '');
                """)
            // The old words of article 4 are still in the index.
            #expect(
                try db.fetchAll(
                    Int64.self, "SELECT rowid FROM articles_fts WHERE articles_fts MATCH 'plain'")
                    == [4])
        }
        #expect(throws: SQLiteError.self) { try db.checkSearchIndexes() }
        try NoteStoreSchema.migrate(db)
        #expect(try db.listedIds("plain") == [])
        #expect(try db.listedIds("giraffe") == [4])
        try db.checkSearchIndexes()
    }

    @Test func authorsMatchIgnoringCaseAndAccents() throws {
        try db.write { db throws in
            for name in ["Zoë", "ada", "Adèle", "Bob", "Ada"] {
                _ = try Notebook.insertAuthor(db, name: name)
            }
        }
        try db.read { db throws in
            #expect(
                try Notebook.authors(db, matching: "").map(\.name)
                    == ["ada", "Ada", "Adèle", "Bob", "Zoë"])
            #expect(
                try Notebook.authors(db, matching: " AD ").map(\.name) == ["ada", "Ada", "Adèle"])
            #expect(try Notebook.authors(db, matching: "ade").map(\.name) == ["Adèle"])
            #expect(try Notebook.authors(db, matching: "zoe").map(\.name) == ["Zoë"])
            #expect(try Notebook.authors(db, matching: "'; --").isEmpty)
        }
    }
}
