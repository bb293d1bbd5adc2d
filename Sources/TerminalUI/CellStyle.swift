/// A color of the 16-color ANSI palette, or the terminal's own default.
///
/// The actual shades are the user's terminal theme; `default` keeps the
/// terminal's foreground or background, so the app looks at home in light
/// and dark themes alike.
public enum TerminalColor: Hashable, Sendable, CaseIterable {
    /// The terminal's own foreground or background.
    case `default`
    /// ANSI color 0.
    case black
    /// ANSI color 1.
    case red
    /// ANSI color 2.
    case green
    /// ANSI color 3.
    case yellow
    /// ANSI color 4.
    case blue
    /// ANSI color 5.
    case magenta
    /// ANSI color 6.
    case cyan
    /// ANSI color 7.
    case white
    /// ANSI color 8.
    case brightBlack
    /// ANSI color 9.
    case brightRed
    /// ANSI color 10.
    case brightGreen
    /// ANSI color 11.
    case brightYellow
    /// ANSI color 12.
    case brightBlue
    /// ANSI color 13.
    case brightMagenta
    /// ANSI color 14.
    case brightCyan
    /// ANSI color 15.
    case brightWhite

    /// The palette index 0-15, or -1 for the terminal's default (curses' convention).
    var paletteIndex: Int {
        switch self {
        case .default: -1
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        }
    }
}

/// How a cell looks: colors and attributes.
///
/// Colors can be switched off by the user (`NO_COLOR`), so a style that must
/// stay visible without color (the focused row, a highlight) should also set
/// an attribute such as `reverse` or `bold`.
public struct CellStyle: Hashable, Sendable {
    /// The text color.
    public var foreground: TerminalColor
    /// The cell's background color.
    public var background: TerminalColor
    /// Bold (or bright) text.
    public var bold: Bool
    /// Foreground and background swapped.
    public var reverse: Bool
    /// Underlined text.
    public var underline: Bool
    /// Faint text.
    public var dim: Bool

    /// Creates a style; every part defaults to the terminal's plain look.
    public init(
        foreground: TerminalColor = .default,
        background: TerminalColor = .default,
        bold: Bool = false,
        reverse: Bool = false,
        underline: Bool = false,
        dim: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    /// The terminal's default colors and no attribute.
    public static let plain = CellStyle()
}
