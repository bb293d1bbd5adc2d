/// Turns what a user typed into an FTS5 query that can only mean "these words, as prefixes".
///
/// Each word becomes an FTS5 string (`"` doubled inside) followed by `*`, and the strings are
/// joined by spaces (FTS5's implicit AND). Inside a string nothing is syntax, so `NEAR`, `AND`,
/// `-`, `:`, `^`, `*` and parentheses are searched as text. The pattern is always bound as a
/// parameter, never spliced into SQL.
enum FullTextPattern {
    /// The FTS5 query for `text`, or nil when it has no words (no filter).
    static func pattern(for text: String) -> String? {
        // A word twice asks nothing more, but costs FTS5 a second prefix scan (a long paste).
        var seen: Set<Substring> = []
        let words = text.split(whereSeparator: isSeparator).filter { seen.insert($0).inserted }
        guard !words.isEmpty else { return nil }
        return words.map { "\"\(quoted($0))\"*" }.joined(separator: " ")
    }

    /// The word with each `"` doubled, scalar by scalar: a quote followed by a combining mark or
    /// a joiner is one `Character` with it, and must be doubled all the same.
    private static func quoted(_ word: Substring) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            scalars.append(scalar)
            if scalar == "\"" { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Whitespace and control characters separate words. Control characters never reach FTS5:
    /// it reads its query as a C string, so a NUL would cut a string short.
    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace
            || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
