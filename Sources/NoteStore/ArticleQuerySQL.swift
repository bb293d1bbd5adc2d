import SQLiteDatabase

/// The SQL of an `ArticleQuery`: fixed fragments chosen by the query's fields. The user's text
/// only ever travels in `arguments`.
///
/// Articles are rows of `article_rows`, aliased `a`. The search indexes hold documents, a title
/// or a chunk of a body each (`NoteStoreSchema.documents`): an article is listed when each word
/// is in one of its documents. With a search, the articles found by the first index with words
/// (the word index, else the substring index), by its first words (`rankedWords`), join them as
/// `hits`, with their best document's `rank`; the search drives the join (`CROSS JOIN` fixes SQLite's join order: otherwise, with
/// an author filter, SQLite walks the author's articles and runs the full-text query once per
/// article). Unspaced words shorter than a trigram select the articles with a trigram starting
/// with them, read from the substring index's terms.
struct ArticleQuerySQL {
    /// The FROM clause.
    private let source: String
    /// Whether the query lists fewer than every article.
    private let isFiltered: Bool
    /// Conditions every listed article meets (joined by AND), and the arguments of the FROM
    /// clause and of the conditions.
    private let conditions: [String]
    private let arguments: [SQLiteValue]
    /// The ORDER BY list: a total order.
    private let orderBy: String
    /// The columns that place an article in the order, as a comma-separated list.
    private let sortColumns: String
    /// A condition true for the articles listed before the one whose sort columns are bound.
    private let precedes: String
    /// The arguments of `precedes`, from the values of `sortColumns` of the target article.
    private let precedingArguments: ([SQLiteValue]) -> [SQLiteValue]

    init(_ query: ArticleQuery) {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        let words = SearchWords(query.search)
        let searches = [
            (index: NoteStoreSchema.searchTable, words: words.prefixWords),
            (index: NoteStoreSchema.substringSearchTable, words: words.substringWords),
        ].filter { !$0.words.isEmpty }
        let articleFound = { (index: String) in
            "SELECT \(NoteStoreSchema.article(ofDocument: "\(index).rowid")) FROM \(index) "
                + "WHERE \(index) MATCH ?"
        }
        // The index that drives the join, and ranks the articles it finds.
        var ranking: String?
        if let first = searches.first {
            ranking = "hits"
            let index = first.index
            source = """
                (SELECT \(NoteStoreSchema.article(ofDocument: "\(index).rowid")) AS articleId,
                    min(rank) AS rank
                FROM \(index) WHERE \(index) MATCH ? GROUP BY 1) AS hits
                CROSS JOIN \(NoteStoreSchema.articleRows) a ON a.id = hits.articleId
                """
            arguments.append(
                .text(first.words.prefix(Self.rankedWords).joined(separator: " OR ")))
        } else {
            source = "\(NoteStoreSchema.articleRows) a"
        }
        for (order, search) in searches.enumerated() {
            // The hits have one of the first index's first words: with one, that is the
            // condition.
            for word in search.words where order > 0 || search.words.count > 1 {
                conditions.append("a.id IN (\(articleFound(search.index)))")
                arguments.append(.text(word))
            }
        }
        if words.findsNothing { conditions.append("0") }
        let terms = NoteStoreSchema.substringTerms
        for word in words.shortSubstrings {
            conditions.append(
                """
                a.id IN (SELECT \(NoteStoreSchema.article(ofDocument: "\(terms).doc")) FROM \(terms)
                    WHERE term BETWEEN ? AND ?)
                """)
            arguments += [.text(word), .text(word + "\u{10FFFF}\u{10FFFF}")]
        }
        if let authorId = query.authorId {
            conditions.append("a.authorId = ?")
            arguments.append(.integer(authorId))
        }
        self.conditions = conditions
        self.arguments = arguments
        isFiltered = ranking != nil || !conditions.isEmpty

        switch (query.order, ranking) {
        case (.title, _):
            orderBy = "a.title COLLATE NOCASE, a.id"
            sortColumns = "a.title, a.id"
            // Not a row value: with COLLATE inside, SQLite scans the whole index instead of a range.
            precedes = "a.title COLLATE NOCASE <= ? AND (a.title COLLATE NOCASE < ? OR a.id < ?)"
            precedingArguments = { [$0[0], $0[0], $0[1]] }
        case (.relevance, let ranking?):
            let rank = "\(ranking).rank"
            orderBy = "\(rank), a.updatedAt DESC, a.id DESC"
            sortColumns = "\(rank), a.updatedAt, a.id"
            precedes = "(\(rank) < ? OR (\(rank) = ? AND (a.updatedAt, a.id) > (?, ?)))"
            precedingArguments = { [$0[0], $0[0], $0[1], $0[2]] }
        case (.updatedDescending, _), (.relevance, nil):
            orderBy = "a.updatedAt DESC, a.id DESC"
            sortColumns = "a.updatedAt, a.id"
            precedes = "(a.updatedAt, a.id) > (?, ?)"
            precedingArguments = { $0 }
        }
    }

    /// How many of the driving index's words find and rank the hits (the others are conditions
    /// on them, as every word is): FTS5 ranks each document against every word of its query, so
    /// a pasted paragraph of a thousand words ranked whole took seconds on 100k articles; with
    /// its first four, no longer than a search of its most common word.
    static let rankedWords = 4

    /// A statement: SQL and its arguments.
    typealias Statement = (sql: String, arguments: [SQLiteValue])

    /// Counts the listed articles; every article: the number the notebook keeps.
    var count: Statement {
        guard isFiltered else {
            return ("SELECT articles FROM \(NoteStoreSchema.countTable) WHERE id = 1", [])
        }
        return ("SELECT count(*) FROM \(source) \(whereClause())", arguments)
    }

    /// A window of the list, as `ArticleSummary` rows.
    func page(offset: Int, limit: Int) -> Statement {
        (
            """
            SELECT a.id, a.title, au.name AS authorName, a.rating, a.updatedAt
            FROM \(source) LEFT JOIN authors au ON au.id = a.authorId
            \(whereClause()) ORDER BY \(orderBy) LIMIT ? OFFSET ?
            """,
            arguments + [.integer(Int64(max(limit, 0))), .integer(Int64(max(offset, 0)))]
        )
    }

    /// The sort key of one article, or no row when the query does not list it.
    func sortKey(ofArticle id: Int64) -> Statement {
        (
            "SELECT \(sortColumns) FROM \(source) \(whereClause("a.id = ?"))",
            arguments + [.integer(id)]
        )
    }

    /// The id of the listed article that comes first among those of `list` (a JSON array of
    /// ids), or no row when none of them is listed.
    func first(amongJSON list: String) -> Statement {
        (
            """
            SELECT a.id FROM \(source) \(whereClause("a.id IN (SELECT value FROM json_each(?))"))
            ORDER BY \(orderBy) LIMIT 1
            """,
            arguments + [.text(list)]
        )
    }

    /// Counts the listed articles before the one whose sort key is given.
    func countPreceding(sortKey values: [SQLiteValue]) -> Statement {
        (
            "SELECT count(*) FROM \(source) \(whereClause(precedes))",
            arguments + precedingArguments(values)
        )
    }

    /// `WHERE` and the conditions, plus `extra` ones; empty when there are none.
    private func whereClause(_ extra: String...) -> String {
        let all = conditions + extra
        return all.isEmpty ? "" : "WHERE " + Self.allOf(all[...])
    }

    /// Conditions joined by AND as a balanced tree: a search adds a condition per word, and
    /// SQLite refuses an expression deeper than 1,000 ("Expression tree is too large"), which a
    /// chain of a thousand ANDs is. Their order, and so their arguments', stays.
    private static func allOf(_ conditions: ArraySlice<String>) -> String {
        guard conditions.count > 2 else { return conditions.joined(separator: " AND ") }
        let middle = conditions.startIndex + conditions.count / 2
        return "(\(allOf(conditions[..<middle]))) AND (\(allOf(conditions[middle...])))"
    }
}
