import SQLiteDatabase
import Testing

@testable import NoteStore

/// Without a search, counting, paging and positions walk an index: no table scan, no sort of the
/// whole table, whatever the size of the notebook.
@Suite struct QueryPlanTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    func plan(_ statement: ArticleQuerySQL.Statement) throws -> String {
        try db.read { db throws in
            try db.fetchAll(Row.self, "EXPLAIN QUERY PLAN " + statement.sql, statement.arguments)
                .map { try $0.decode("detail", as: String.self) }.joined(separator: "\n")
        }
    }

    static let queries: [ArticleQuery] = ArticleQuery.Order.allCases.flatMap { order in
        [ArticleQuery(order: order), ArticleQuery(order: order, authorId: 3)]
    }

    @Test(arguments: queries)
    func listQueriesUseAnIndex(query: ArticleQuery) throws {
        let sql = ArticleQuerySQL(query)
        let statements = [
            sql.count, sql.page(offset: 100, limit: 50),
            sql.sortKey(ofArticle: 7),
            sql.countPreceding(sortKey: [.text("2024-01-01T00:00:00.000Z"), .integer(7)]),
        ]
        for statement in statements {
            let plan = try plan(statement)
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
            #expect(plan.contains(" USING "), "\(plan)")
        }
        // A position counts a range of an index, not the whole table.
        let position = try plan(statements[3])
        #expect(position.hasPrefix("SEARCH a USING COVERING INDEX"), "\(position)")
        #expect(position.contains("<") || position.contains(">"), "\(position)")
    }

    static let searches: [ArticleQuery] = ArticleQuery.Order.allCases.flatMap { order in
        [
            ArticleQuery(order: order, search: "word"),
            ArticleQuery(order: order, authorId: 3, search: "word"),
        ]
    }

    /// With a search, the full-text query runs once (its documents grouped by article) and
    /// drives the join: never once per article.
    @Test(arguments: searches)
    func searchesStartFromTheFullTextIndex(query: ArticleQuery) throws {
        let sql = ArticleQuerySQL(query)
        let key: [SQLiteValue] =
            query.order == .relevance
            ? [.real(-1), .text("2024-01-01T00:00:00.000Z"), .integer(7)]
            : [.text("2024-01-01T00:00:00.000Z"), .integer(7)]
        let statements = [
            sql.count, sql.page(offset: 100, limit: 50), sql.sortKey(ofArticle: 7),
            sql.countPreceding(sortKey: key),
        ]
        for statement in statements {
            let plan = try plan(statement)
            #expect(plan.hasPrefix("CO-ROUTINE hits\nSCAN articles_fts VIRTUAL TABLE"), "\(plan)")
            #expect(plan.contains("SCAN hits\nSEARCH a USING INTEGER PRIMARY KEY"), "\(plan)")
        }
    }
}

extension QueryPlanTests {
    static let substringSearches: [ArticleQuery] = ArticleQuery.Order.allCases.flatMap { order in
        ["成都", "搬家到成都", "成都 word"].flatMap { search in
            [
                ArticleQuery(order: order, search: search),
                ArticleQuery(order: order, authorId: 3, search: search),
            ]
        }
    }

    /// A substring search reads the substring index (its trigrams, or the terms that start with
    /// a shorter word) and finds each article by its key: it never reads every article.
    @Test(arguments: substringSearches)
    func substringSearchesReadTheSubstringIndex(query: ArticleQuery) throws {
        let sql = ArticleQuerySQL(query)
        for statement in [sql.count, sql.page(offset: 100, limit: 50), sql.sortKey(ofArticle: 7)] {
            let plan = try plan(statement)
            #expect(plan.contains("articles_substrings"), "\(plan)")
            #expect(!plan.contains("SCAN a\n") && !plan.hasSuffix("SCAN a"), "\(plan)")
            #expect(!plan.contains("SCAN a USING"), "\(plan)")
        }
    }
}
