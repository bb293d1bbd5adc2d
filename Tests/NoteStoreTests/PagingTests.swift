import NoteStore
import SQLiteDatabase
import Testing

/// Count, page and position on 100,000 articles, checked against orders computed here from the
/// same formulas that generated the rows.
@Suite struct PagingTests {
    let db: DatabaseQueue
    static let total = 100_000

    /// One generated article, as the test computes it.
    struct Expected {
        let id: Int64
        let authorId: Int64
        /// The title folded as `COLLATE NOCASE` compares it.
        let titleKey: String
        /// Seconds after 2020-09-13T12:26:40Z; every value is shared by two articles.
        let updated: Int
        /// How often "rareword" occurs in the body (0, 1 or 2).
        let rareCount: Int
    }

    static let expected: [Expected] = (1...total).map { i in
        Expected(
            id: Int64(i), authorId: Int64(i % 10 + 1),
            titleKey: "note " + fiveDigits((i * 7) % 40_000),
            updated: (i * 37) % 50_000,
            rareCount: i % 1000 == 0 ? 2 : i % 100 == 0 ? 1 : 0)
    }

    init() throws {
        db = try makeNotebook()
        try db.write { db throws in
            for index in 1...10 { _ = try Notebook.insertAuthor(db, name: "Author \(index)") }
            try db.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.total))
                INSERT INTO articles(id, authorId, title, body, rating, createdAt, updatedAt)
                SELECT i, i % 10 + 1,
                    CASE i % 3 WHEN 0 THEN 'note' WHEN 1 THEN 'Note' ELSE 'NOTE' END
                        || printf(' %05d', (i * 7) % 40000),
                    'common text' || CASE WHEN i % 1000 = 0 THEN ' rareword rareword'
                        WHEN i % 100 = 0 THEN ' rareword' ELSE '' END,
                    i % 6, '2020-01-01T00:00:00.000Z',
                    strftime('%Y-%m-%dT%H:%M:%fZ', 1600000000 + (i * 37) % 50000, 'unixepoch')
                FROM n
                """)
        }
    }

    /// The expected list of a query, sorted here.
    static func expectedIds(_ query: ArticleQuery) -> [Int64] {
        let rows = expected.filter { row in
            (query.authorId.map { row.authorId == $0 } ?? true)
                && (query.search != "rareword" || row.rareCount > 0)
        }
        func updatedFirst(_ a: Expected, _ b: Expected) -> Bool {
            (a.updated, a.id) > (b.updated, b.id)
        }
        let sorted: [Expected]
        switch query.order {
        case .updatedDescending: sorted = rows.sorted(by: updatedFirst)
        case .title: sorted = rows.sorted { ($0.titleKey, $0.id) < ($1.titleKey, $1.id) }
        case .relevance where query.search.isEmpty:
            sorted = rows.sorted(by: updatedFirst)
        case .relevance:
            sorted = rows.sorted {
                $0.rareCount != $1.rareCount ? $0.rareCount > $1.rareCount : updatedFirst($0, $1)
            }
        }
        return sorted.map(\.id)
    }

    /// Checks count, three pages (first, middle, last, partial) and the position of every
    /// article on them, plus positions of articles the query does not list.
    func check(_ query: ArticleQuery, expectedCount: Int) throws {
        let ids = Self.expectedIds(query)
        #expect(ids.count == expectedCount)
        try db.read { db throws in
            #expect(try Notebook.count(db, query) == expectedCount)
            for offset in [0, expectedCount / 2 - 3, expectedCount - 7] {
                let page = try Notebook.page(db, query, offset: offset, limit: 10)
                let wanted = Array(ids[offset..<min(offset + 10, ids.count)])
                #expect(page.map(\.id) == wanted, "offset \(offset) of \(query)")
                for (index, summary) in page.enumerated() {
                    #expect(
                        try Notebook.position(db, ofArticle: summary.id, in: query)
                            == offset + index)
                }
            }
            #expect(try Notebook.page(db, query, offset: expectedCount, limit: 10).isEmpty)
            #expect(try Notebook.position(db, ofArticle: 100_001, in: query) == nil)
            let listed = Set(ids)
            let unlisted = Self.expected.first { !listed.contains($0.id) }
            if let unlisted {
                #expect(try Notebook.position(db, ofArticle: unlisted.id, in: query) == nil)
            }
        }
    }

    @Test(arguments: ArticleQuery.Order.allCases)
    func everyArticle(order: ArticleQuery.Order) throws {
        try check(ArticleQuery(order: order), expectedCount: Self.total)
    }

    @Test(arguments: ArticleQuery.Order.allCases)
    func oneAuthor(order: ArticleQuery.Order) throws {
        try check(ArticleQuery(order: order, authorId: 3), expectedCount: Self.total / 10)
    }

    @Test(arguments: ArticleQuery.Order.allCases)
    func search(order: ArticleQuery.Order) throws {
        try check(ArticleQuery(order: order, search: "rareword"), expectedCount: 1000)
        try check(ArticleQuery(order: order, authorId: 1, search: "rareword"), expectedCount: 1000)
        try db.read { db throws in
            #expect(try Notebook.count(db, ArticleQuery(authorId: 3, search: "rareword")) == 0)
        }
    }

    @Test func pageSummariesAreWhole() throws {
        let page = try db.read { db throws in
            try Notebook.page(db, ArticleQuery(order: .title), offset: 0, limit: 3)
        }
        #expect(
            page == [
                ArticleSummary(
                    id: 40_000, title: "Note 00000", authorName: "Author 1", rating: 4,
                    updatedAt: "2020-09-13T20:46:40.000Z"),
                ArticleSummary(
                    id: 80_000, title: "NOTE 00000", authorName: "Author 1", rating: 2,
                    updatedAt: "2020-09-13T15:13:20.000Z"),
                ArticleSummary(
                    id: 17_143, title: "Note 00001", authorName: "Author 4", rating: 1,
                    updatedAt: "2020-09-13T21:58:11.000Z"),
            ])
    }
}

/// A number with five digits, zero-padded, as `printf('%05d')` writes it.
func fiveDigits(_ number: Int) -> String {
    let digits = "\(number)"
    return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
}
