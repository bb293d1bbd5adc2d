import NoteStore
import SQLiteDatabase
import Testing

/// Text written without spaces (Chinese, Japanese, Korean, Thai) is found anywhere inside a run,
/// whatever the length of the word searched; spaced scripts keep word-prefix search.
@Suite struct SubstringSearchTests {
    let db: DatabaseQueue

    /// Ids of the articles below, in insertion order (1...9).
    init() throws {
        db = try makeNotebook(articles: Self.articles)
    }

    static let articles = [
        ("搬家到成都", "行李很多"),
        ("明年搬家到成都", "Moving in spring"),
        ("我们搬家到成都了", "成"),
        ("Plain notes", "nothing of the kind"),
        ("東京の夜", "今日は東京で会議がありました。"),
        ("Shopping", "买了一部iPhone手机和\"引号\"里的字"),
        ("한국어", "서울에서 만났습니다"),
        ("ภาษาไทย", "สวัสดีครับ"),
        ("都", "成都"),
    ]

    func ids(_ search: String, order: ArticleQuery.Order = .updatedDescending) throws -> [Int64] {
        try db.listedIds(search, order: order)
    }

    static let substrings: [(String, [Int64])] = [
        // Two characters at the end, the middle and the whole of a run.
        ("成都", [9, 3, 2, 1]),
        ("搬家", [3, 2, 1]),
        ("到成", [3, 2, 1]),
        // One character: anywhere, the last of a text, a whole text.
        ("成", [9, 3, 2, 1]),
        ("都", [9, 3, 2, 1]),
        ("了", [6, 3]),
        // Three or more: the trigram index, as a phrase.
        ("家到成都", [3, 2, 1]),
        ("们搬家到成都了", [3]),
        ("搬家到成都了吗", []),
        ("京で会議", [5]),
        ("の夜", [5]),
        ("ありました", [5]),
        ("에서", [7]),
        ("만났", [7]),
        ("สวัสดี", [8]),
        ("ครับ", [8]),
        // Latin inside an unspaced run, in any case; quotes are text.
        ("iphone手机", [6]),
        ("PHONE手", [6]),
        ("e手", [6]),
        ("\"引号\"", [6]),
        ("号\"", [6]),
        ("\"", []),
        // Several words: every one must match, each in its own way.
        ("成都 spring", [2]),
        ("spr 成都", [2]),
        ("成都 明年", [2]),
        ("成都 搬家到 明", [2]),
        ("成都 plain", []),
        ("東京 成都", []),
        // Spaced words are still prefixes, not substrings.
        ("ring", []),
        ("noth", [4]),
    ]

    @Test(arguments: substrings)
    func unspacedWordsAreFoundAnywhereInARun(search: String, expected: [Int64]) throws {
        #expect(try ids(search) == expected)
        for order in ArticleQuery.Order.allCases {
            #expect(try ids(search, order: order).sorted() == expected.sorted())
        }
    }

    @Test func relevanceRanksSubstringMatchesAndKeepsPositions() throws {
        try db.write { db throws in
            try Notebook.updateBody(db, ofArticle: 2, to: "搬家到成都，搬家到成都，搬家到成都")
            let date = "2024-01-01T00:00:01.000Z"
            try db.setDates(ofArticle: 2, created: date, updated: date)
        }
        #expect(try ids("家到成都") == [3, 2, 1])
        #expect(try ids("家到成都", order: .relevance).first == 2)
        #expect(try ids("家到成都", order: .title) == [3, 1, 2])
        // Shorter than a trigram: no rank, so the most recently changed first.
        #expect(try ids("成都", order: .relevance) == [9, 3, 2, 1])
    }

    @Test func substringIndexFollowsEveryWrite() throws {
        try db.write { db throws in
            try Notebook.updateTitle(db, ofArticle: 1, to: "Moved to Chengdu")
            try Notebook.updateBody(db, ofArticle: 4, to: "终于搬家到成都")
            try Notebook.deleteArticle(db, id: 2)
            try db.execute("UPDATE articles SET id = 100 WHERE id = 3")
            // A run made longer at the end, as typing does.
            try Notebook.updateTitle(db, ofArticle: 5, to: "東京の夜景")
        }
        #expect(try ids("成都").sorted() == [4, 9, 100])
        #expect(try ids("搬家到").sorted() == [4, 100])
        #expect(try ids("行李") == [1])
        #expect(try ids("明年") == [])
        #expect(try ids("夜景") == [5])
        #expect(try ids("の夜景") == [5])
        try db.checkSearchIndexes()
    }

    /// `REPLACE` from a program without recursive triggers: the old row's trigrams go.
    @Test func substringIndexFollowsReplace() throws {
        try db.write { db throws in
            try db.execute(
                """
                REPLACE INTO articles(id, title, body, createdAt, updatedAt)
                VALUES (1, 'Zebra', 'giraffe', '', '')
                """)
            try db.execute("UPDATE OR REPLACE articles SET id = 5 WHERE id = 7")
        }
        #expect(try ids("搬家到成都") == [3, 2])
        #expect(try ids("東京") == [])
        #expect(try ids("서울") == [5])
        try db.checkSearchIndexes()
    }

    /// A notebook from before the substring index gets it, with its articles, when it opens.
    @Test func theMigrationIndexesTheArticlesAlreadyThere() throws {
        let db = try makeNotebook(
            through: "notestore-7-search-follows-replace", articles: Self.articles)
        try NoteStoreSchema.migrate(db)
        #expect(try db.listedIds("成都") == [9, 3, 2, 1])
        #expect(try db.listedIds("京で") == [5])
        try db.checkSearchIndexes()
    }

    /// Only articles with unspaced text are in the substring index (it would otherwise hold
    /// every trigram of every article).
    @Test func spacedArticlesStayOutOfTheSubstringIndex() throws {
        let indexed = try db.read { db throws in
            // Documents are titles (minus the article's id) and chunks of bodies.
            try db.fetchAll(
                Int64.self,
                """
                SELECT DISTINCT CASE WHEN d.id < 0 THEN -d.id
                    ELSE (SELECT articleId FROM article_chunks c WHERE c.id = d.id) END AS article
                FROM articles_substrings_docsize d ORDER BY article
                """)
        }
        #expect(indexed == [1, 2, 3, 5, 6, 7, 8, 9])
    }

}
