import TerminalUI

/// The styles of the screen, in the terminal's 16 colors (attributes only under `NO_COLOR`,
/// which the curses backend handles).
enum Theme {
    static let titleBar = CellStyle(reverse: true)
    static let focusedHeader = CellStyle(foreground: .black, background: .cyan, bold: true)
    static let header = CellStyle(reverse: true, dim: true)
    static let selectedFocused = CellStyle(reverse: true)
    static let selected = CellStyle(underline: true)
    static let highlighted = CellStyle(foreground: .black, background: .yellow, bold: true)
    static let secondary = CellStyle(dim: true)
    static let separator = CellStyle(dim: true)
    static let articleTitle = CellStyle(bold: true)
    static let placeholderTitle = CellStyle(bold: true, dim: true)
    static let status = CellStyle(bold: true)
    static let shortcutKey = CellStyle(reverse: true)
    static let overlay = CellStyle(foreground: .white, background: .blue)
    static let overlaySelected = CellStyle(foreground: .black, background: .cyan)
}
