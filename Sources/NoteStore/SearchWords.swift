/// What a user typed into search, as full-text queries that can only mean "these words": a word
/// of a spaced script is found as a word prefix, a word with text of an unspaced script
/// (`UnspacedScripts`) anywhere inside a run of text.
///
/// Every word becomes an FTS5 string (`"` doubled inside), or a bound range of index terms.
/// Inside a string nothing is syntax, so `NEAR`, `AND`, `-`, `:`, `^`, `*` and parentheses are
/// searched as text. Patterns are always bound as parameters, never spliced into SQL.
struct SearchWords {
    /// The word-prefix queries of the spaced words for the word index: each string followed
    /// by `*`.
    let prefixWords: [String]
    /// The substring queries of the unspaced words of three code points or more for the
    /// trigram index, where a string matches as a substring.
    let substringWords: [String]
    /// The unspaced words shorter than a trigram, folded as the trigram index folds case: the
    /// articles that have one are those with an indexed trigram starting with it (the index
    /// adds two newlines after each text, so every character starts a trigram).
    let shortSubstrings: [String]

    /// Whether the text has words, none of which the indexes can find (`*`, `-`): no article
    /// matches, as none has them.
    let findsNothing: Bool

    /// Whether the text has no words (no filter).
    var isEmpty: Bool {
        prefixWords.isEmpty && substringWords.isEmpty && shortSubstrings.isEmpty
    }

    /// The most words a search looks for: each is a condition bound as one or two parameters
    /// (SQLite takes at most 32,766 in a statement), and each costs a look-up in an index. The
    /// words past them (of a pasted chapter) are left out of the search.
    static let mostWords = 2_000

    init(_ text: String) {
        // A word twice asks nothing more, but costs FTS5 a second scan (a long paste).
        var seen: Set<Substring> = []
        var words: [Substring] = []
        for word in text.split(whereSeparator: Self.isSeparator) where seen.insert(word).inserted {
            words.append(word)
            if words.count == Self.mostWords { break }
        }
        var prefixes: [String] = []
        var substrings: [String] = []
        var shortSubstrings: [String] = []
        for word in words {
            if !UnspacedScripts.occur(in: word) {
                // A word the tokenizer reads no token in matches no document: AND-ed with the
                // others, FTS5 left it out; alone, it would find nothing.
                guard Self.hasToken(word) else { continue }
                prefixes.append("\"\(Self.quoted(word))\"*")
            } else if word.unicodeScalars.count >= 3 {
                substrings.append("\"\(Self.quoted(word))\"")
            } else {
                shortSubstrings.append(Self.folded(word))
            }
        }
        prefixWords = prefixes
        substringWords = substrings
        findsNothing =
            !words.isEmpty && prefixes.isEmpty && substrings.isEmpty && shortSubstrings.isEmpty
        self.shortSubstrings = shortSubstrings
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

    /// The word in lower case code point by code point, as the trigram tokenizer stores it.
    private static func folded(_ word: Substring) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            scalars.append(lower.count == 1 ? lower.first! : scalar)
        }
        return String(scalars)
    }

    /// Whether the word index's tokenizer reads a token in the word: a character of the
    /// categories it indexes (`NoteStoreSchema.createSearchIndex`: letters, numbers, private
    /// use, marks, other symbols).
    private static func hasToken(_ word: Substring) -> Bool {
        word.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter,
                .otherLetter, .decimalNumber, .letterNumber, .otherNumber, .privateUse,
                .spacingMark, .nonspacingMark, .otherSymbol:
                true
            default: false
            }
        }
    }

    /// Whitespace and control characters separate words. Control characters never reach FTS5:
    /// it reads its query as a C string, so a NUL would cut a string short.
    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace
            || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
