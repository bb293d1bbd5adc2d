internal import CNCursesW

/// The column widths curses places characters by: the C library's `wcwidth`.
///
/// Canvas widths must agree with it, or curses and the canvas would put
/// the cells after a wide character in different columns. It answers in the
/// current LC_CTYPE, so callers check `UTF8Locale.isActive` first.
enum CursesCharacterWidth {
    /// The columns of `scalar`, or nil when the C library has no width for it
    /// (a control character, or a scalar newer than its Unicode tables).
    static func of(_ scalar: Unicode.Scalar) -> Int? {
        let width = Int(wcwidth(wchar_t(bitPattern: scalar.value)))
        return width >= 0 ? width : nil
    }
}
