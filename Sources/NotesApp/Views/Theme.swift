import TerminalUI

/// The styles of the screen, in the terminal's 16 colors. Under `NO_COLOR` (which the curses
/// backend handles) only the attributes remain, so each style says what it means by them too:
/// reverse for the focused pane's header and for what is selected, underline for what a
/// find matched (and, in bold, the words a search matched in the list), underline and bold for rows
/// an undo brought back. Colors on reverse are given swapped (reverse swaps them back).
enum Theme {
    static let titleBar = CellStyle(reverse: true)
    static let focusedHeader = CellStyle(
        foreground: .cyan, background: .black, bold: true, reverse: true)
    static let header = CellStyle(underline: true, dim: true)
    static let selectedFocused = CellStyle(reverse: true)
    static let selected = CellStyle(underline: true)
    static let highlighted = CellStyle(
        foreground: .black, background: .yellow, bold: true, underline: true)
    /// Selected text in an open article.
    static let selectedText = CellStyle(reverse: true)
    /// What a find matched in an open article.
    static let match = CellStyle(foreground: .black, background: .yellow, underline: true)
    /// The match the cursor is on (F3 and Shift-F3 go from one to the next): black on cyan, in
    /// reverse and bold where there are no colors.
    static let currentMatch = CellStyle(
        foreground: .cyan, background: .black, bold: true, reverse: true, underline: true)
    static let secondary = CellStyle(dim: true)
    static let separator = CellStyle(dim: true)
    static let articleTitle = CellStyle(bold: true)
    static let placeholderTitle = CellStyle(bold: true, dim: true)
    static let status = CellStyle(bold: true)
    static let shortcutKey = CellStyle(reverse: true)
    static let overlay = CellStyle(foreground: .white, background: .blue)
    static let overlaySelected = CellStyle(foreground: .cyan, background: .black, reverse: true)
}
