import SQLiteDatabase

/// Edits of text stored as bytes that are not all UTF-8 (another program wrote them): the app
/// reads such text with each ill-formed sequence shown as U+FFFD, and an edit of it is carried
/// back onto the stored bytes, so that every byte the edit did not touch stays as it was.
enum KeptBytes {
    /// The bytes `stored` becomes when its text, as read (`String(decoding:as:)`), is edited to
    /// `edited`: `edited` where the edit changed the text, `stored` before and after it, so the
    /// result reads as `edited` and keeps every ill-formed byte outside the edit. nil when
    /// `stored` is valid UTF-8 (its text is its bytes), or when the bytes kept on either side of
    /// the edit would read otherwise once joined: `edited` is then written as it is.
    static func edit(_ stored: [UInt8], to edited: [UInt8]) -> [UInt8]? {
        let read = Array(String(decoding: stored, as: UTF8.self).utf8)
        guard read != stored else { return nil }
        let (prefix, suffix) = CommonPrefixAndSuffix.of(read, edited)
        // The edit, widened to whole characters of the text as read: they begin and end at
        // known places in the stored bytes.
        var at = (read: 0, stored: 0)
        var start = at
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = stored.makeIterator()
        parsing: while at.read < read.count - suffix {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): at = (at.read + scalar.count, at.stored + scalar.count)
            case .error(let length): at = (at.read + replacementLength, at.stored + length)
            case .emptyInput: break parsing
            }
            if at.read <= prefix { start = at }
        }
        let unchangedEnd = read.count - at.read
        let kept =
            Array(stored[..<start.stored])
            + edited[start.read..<(edited.count - unchangedEnd)]
            + stored[at.stored...]
        // Ill-formed bytes brought together may read otherwise: a sequence cut short before a
        // lone continuation byte ("E2" and "82 AC" with "x" deleted between them read as "€").
        // Then the edited text is written as it is.
        guard String(decoding: kept, as: UTF8.self).utf8.elementsEqual(edited) else { return nil }
        return kept
    }

    /// The UTF-8 length of U+FFFD, which stands for each ill-formed sequence.
    private static let replacementLength = 3
}
