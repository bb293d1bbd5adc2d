/// The demo notebook: one article per (title template, subject) of each language of the
/// corpus, with paragraphs, author, rating and dates drawn from a fixed seed, so every run and
/// every machine gets the same notebook.
struct DemoNotebook {
    /// One article to insert.
    struct Entry: Equatable {
        /// Index into `authors`, or nil for an unsigned article.
        let authorIndex: Int?
        let title: String
        let body: String
        let rating: Int
        /// Seconds since 1970, with milliseconds.
        let createdAt: Double
        let updatedAt: Double
    }

    /// Author names, every language's in corpus order.
    let authors: [String]
    /// The articles, languages interleaved, dated in this order.
    let articles: [Entry]

    /// 2023-01-02T08:00:00Z: the demo notebook's first day.
    private static let firstDay: Double = 1_672_646_400

    init(corpus: DemoCorpus) {
        var generator = SeededGenerator(seed: 0x4E_6F_74_65_73)  // "Notes"
        var authors: [String] = []
        var languages: [[Entry]] = []
        for language in corpus.languages {
            languages.append(Self.entries(language, firstAuthor: authors.count, &generator))
            authors += language.authors
        }
        var articles: [Entry] = []
        let longest = languages.map(\.count).max() ?? 0
        for index in 0..<longest {
            for entries in languages where index < entries.count {
                articles.append(Self.dated(entries[index], order: articles.count, &generator))
            }
        }
        self.authors = authors
        self.articles = articles
    }

    /// Every (template, subject) pair once; consecutive articles vary both.
    private static func entries(
        _ language: DemoCorpus.Language, firstAuthor: Int, _ generator: inout SeededGenerator
    ) -> [Entry] {
        let templates = language.titles.count
        let subjects = language.subjects.count
        guard templates > 0, subjects > 0, !language.openings.isEmpty,
            !language.middles.isEmpty, !language.closings.isEmpty
        else { return [] }
        return (0..<templates * subjects).map { pair in
            let subject = language.subjects[(pair / templates + pair % templates) % subjects]
            func fill(_ text: String) -> String {
                text.replacing(DemoCorpus.placeholder, with: subject)
            }
            var paragraphs = [language.openings[generator.next(below: language.openings.count)]]
            let middle = generator.next(below: language.middles.count)
            paragraphs.append(language.middles[middle])
            if language.middles.count > 1, generator.next(below: 2) == 0 {
                let other = middle + 1 + generator.next(below: language.middles.count - 1)
                paragraphs.append(language.middles[other % language.middles.count])
            }
            paragraphs.append(language.closings[generator.next(below: language.closings.count)])
            let unsigned = language.authors.isEmpty || generator.next(below: 20) == 0
            return Entry(
                authorIndex: unsigned
                    ? nil : firstAuthor + generator.next(below: language.authors.count),
                title: fill(language.titles[pair % templates]),
                body: paragraphs.map(fill).joined(separator: "\n\n"),
                rating: generator.next(below: 6),
                createdAt: 0, updatedAt: 0)
        }
    }

    /// The entry with dates: about one article every 13 hours, edited up to four days later.
    private static func dated(_ entry: Entry, order: Int, _ generator: inout SeededGenerator)
        -> Entry
    {
        let milliseconds = Double(generator.next(below: 1000)) / 1000
        let created =
            firstDay + Double(order * 13 * 3600 + generator.next(below: 600) * 60)
            + milliseconds
        let updated = created + Double(generator.next(below: 96 * 60) * 60 + 1)
        return Entry(
            authorIndex: entry.authorIndex, title: entry.title, body: entry.body,
            rating: entry.rating, createdAt: created, updatedAt: updated)
    }
}
