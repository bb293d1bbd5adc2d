#if canImport(Glibc)
    import Glibc
#endif

/// How many terminal columns text takes, measured the way the terminal does (`wcwidth`).
///
/// CJK ideographs and emoji take 2 columns, combining marks 0, ASCII 1. A
/// grapheme takes the width of its first scalar, except that emoji sequences
/// (ZWJ sequences, flags, and anything with the emoji presentation selector
/// U+FE0F) take 2. Control characters never reach the terminal: they are drawn
/// as a visible stand-in ("^X", or U+FFFD; a tab as four spaces), and measure as that
/// stand-in.
public enum DisplayWidth {
    /// The columns one grapheme takes on screen (0, 1 or 2; more for a control stand-in).
    public static func of(_ character: Character) -> Int {
        Glyph(character).width
    }

    /// The columns a string takes on screen: the sum of its graphemes' widths.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += Glyph(character).width
        }
        return total
    }

    /// `text` as it fits in `width` columns: whole, or cut with "…" in its last column, so that
    /// a cut line says it was cut.
    public static func fitting(_ text: some StringProtocol, in width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return String(text) }
        var kept = ""
        var used = 0
        for character in text {
            let next = Glyph(character).width
            guard used + next <= width - 1 else { break }
            kept.append(character)
            used += next
        }
        return kept + "…"
    }
}

/// How one grapheme appears on screen: itself, or a stand-in that is safe to print.
enum Glyph: Equatable {
    /// The grapheme itself, `width` columns wide (0, 1 or 2).
    case text(Character, width: Int)
    /// A visible stand-in for a grapheme that must not reach the terminal raw;
    /// each of its characters is one column wide.
    case replacement(String)

    /// The glyph for `character`.
    init(_ character: Character) {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else {
            self = .replacement("\u{FFFD}")
            return
        }
        let isSingle = scalars.index(after: scalars.startIndex) == scalars.endIndex
        if isSingle, first.value >= 0x20, first.value < 0x7F {
            self = .text(character, width: 1)
            return
        }
        if scalars.contains(where: Glyph.isControl) {
            self = .replacement(scalars.map(Glyph.controlPicture).joined())
            return
        }
        guard let base = Glyph.width(of: first) else {
            self = .replacement("\u{FFFD}")
            return
        }
        if !isSingle, base < 2, Glyph.hasEmojiPresentation(scalars) {
            self = .text(character, width: 2)
        } else {
            self = .text(character, width: base)
        }
    }

    /// The columns the glyph takes.
    var width: Int {
        switch self {
        case .text(_, let width): width
        case .replacement(let text): text.unicodeScalars.count
        }
    }

    /// C0 controls, DEL and C1 controls: the scalars a terminal may act on.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// Four spaces for a tab, "^X" for another C0 control or DEL (as shells show them), U+FFFD
    /// for C1 controls.
    private static func controlPicture(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: return "    "
        case 0..<0x20:
            guard let letter = Unicode.Scalar(scalar.value + 0x40) else { return "\u{FFFD}" }
            return "^" + String(Character(letter))
        case 0x7F: return "^?"
        case 0x80..<0xA0: return "\u{FFFD}"
        default: return String(Character(scalar))
        }
    }

    /// Whether a multi-scalar grapheme is presented as an emoji: it asks for
    /// emoji presentation (U+FE0F), or joins or pairs emoji (ZWJ sequences, flags).
    private static func hasEmojiPresentation(_ scalars: Character.UnicodeScalarView) -> Bool {
        var emoji = 0
        for scalar in scalars {
            if scalar.value == 0xFE0F { return true }
            if scalar.properties.isEmojiPresentation { emoji += 1 }
        }
        return emoji > 1
    }

    /// The columns of one printable scalar, or nil when it has no printable form.
    ///
    /// `wcwidth` answers first, as it is what the terminal's own libc uses;
    /// scalars newer than libc's tables fall back to Unicode properties.
    private static func width(of scalar: Unicode.Scalar) -> Int? {
        if UTF8Locale.isActive, let width = CursesCharacterWidth.of(scalar) {
            return width
        }
        switch scalar.properties.generalCategory {
        case .unassigned, .surrogate, .control, .lineSeparator, .paragraphSeparator:
            return nil
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            return scalar.properties.isEmojiPresentation ? 2 : 1
        }
    }
}

/// Makes the C library's character functions (`wcwidth`) work on UTF-8.
///
/// `wcwidth` answers -1 for every non-ASCII character in the "C" locale,
/// which is what a process has until it calls `setlocale`, and what tests get
/// when the environment sets no locale.
enum UTF8Locale {
    /// Whether LC_CTYPE is a UTF-8 locale; the first use selects one.
    static let isActive: Bool = activate()

    /// Selects the user's LC_CTYPE, or C.UTF-8 when the user's is not UTF-8.
    ///
    /// - Returns: Whether LC_CTYPE is UTF-8 now.
    @discardableResult
    static func activate() -> Bool {
        if setlocale(LC_CTYPE, "") != nil, isUTF8() { return true }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if isUTF8() { return true }
        }
        return false
    }

    private static func isUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
