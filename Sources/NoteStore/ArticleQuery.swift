/// Which articles a list pane shows, and in which order.
public struct ArticleQuery: Sendable, Equatable {
    /// A total order of articles: ties are broken by id, so positions are stable.
    public enum Order: Sendable, Equatable, CaseIterable {
        /// Most recently changed first (`updatedAt` descending, then id descending).
        case updatedDescending
        /// By title, ignoring ASCII case (then id ascending).
        case title
        /// Best search match first (FTS5 `rank`, that is bm25), then as `updatedDescending`.
        /// Without a search every article matches equally: the same as `updatedDescending`.
        case relevance
    }

    /// The order of the list.
    public var order: Order
    /// Only this author's articles, or nil for all.
    public var authorId: Int64?
    /// Words the user typed: an article matches when its title or body has each of them. A word
    /// of a spaced script matches the start of a word, ignoring case and accents; a word with
    /// text of a script written without spaces (Chinese, Japanese, Korean, Thai) matches
    /// anywhere, ignoring case: 成都 finds 搬家到成都. Any text is safe (it is never SQL nor FTS5
    /// syntax); empty or blank means no filter.
    public var search: String

    /// Whether it leaves some articles out (an author or a search): then changing an article
    /// can change how many it lists.
    public var isFiltered: Bool {
        authorId != nil || !search.allSatisfy(\.isWhitespace)
    }

    /// Makes a query; by default every article, most recently changed first.
    public init(order: Order = .updatedDescending, authorId: Int64? = nil, search: String = "") {
        self.order = order
        self.authorId = authorId
        self.search = search
    }
}
