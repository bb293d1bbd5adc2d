/// The scripts written without spaces between words: Chinese, Japanese, Korean (whose words
/// carry their particles), Thai, Lao, Khmer and Myanmar. A word-prefix index finds such text
/// only from the start of a run, so the notebook also keeps a substring index of the articles
/// that contain any of it.
///
/// One list of ranges serves both sides: the GLOB class the schema's plain-SQL triggers use to
/// pick the articles to index, and the test of a search word in Swift.
enum UnspacedScripts {
    /// The code point ranges, in order. Few and wide, because the GLOB class is tested at every
    /// character of a text an article is saved with: neighbours of these scripts (Tibetan, Yi,
    /// CJK punctuation, full-width Latin) are in too, and are found as substrings as well.
    static let ranges: [ClosedRange<UInt32>] = [
        0x0E00...0x109F,  // Thai, Lao, Tibetan, Myanmar
        0x1100...0x11FF,  // Hangul Jamo
        0x1780...0x17FF,  // Khmer
        0x3000...0xD7FF,  // CJK punctuation, Kana, Bopomofo, ideographs, Yi, Hangul
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFF00...0xFFEF,  // full-width and half-width forms
        0x20000...0x323AF,  // CJK ideographs, extensions B to H
    ]

    /// Whether the text has a character of these scripts.
    static func occur(in text: Substring) -> Bool {
        text.unicodeScalars.contains { scalar in ranges.contains { $0.contains(scalar.value) } }
    }

    /// A GLOB pattern matching text that has a character of these scripts (SQLite compares the
    /// code points of a class's ranges, four-byte characters included). It reads every
    /// character of a text that has none, so `sqlTest` runs it only on text that is not ASCII.
    private static let globPattern: String = {
        let classRanges = ranges.map { range in
            "\(Character(Unicode.Scalar(range.lowerBound)!))-"
                + "\(Character(Unicode.Scalar(range.upperBound)!))"
        }
        return "*[\(classRanges.joined())]*"
    }()

    /// Plain SQL true when `text` (an expression) has a character of these scripts. Counting
    /// characters is a quick loop; the GLOB, which reads the class at every character, runs
    /// only when there are more bytes than characters.
    static func sqlTest(_ text: String) -> String {
        "(length(CAST(\(text) AS BLOB)) > length(\(text)) AND \(text) GLOB '\(globPattern)')"
    }
}
