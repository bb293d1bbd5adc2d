internal import CNCursesW

/// Curses attributes and color pairs for cell styles.
///
/// Pairs are created the first time a (foreground, background) combination
/// is drawn. With `NO_COLOR`, or a terminal without colors, no pair is ever
/// made and styles show through attributes alone.
@MainActor
final class CursesPalette {
    private struct ColorCombination: Hashable {
        var foreground: TerminalColor
        var background: TerminalColor
    }

    private let usesColor: Bool
    private let colorCount: Int
    private let pairLimit: Int
    private let hasDefaultColors: Bool
    private var pairs: [ColorCombination: Int16] = [:]

    /// Starts colors unless `noColor` is set or the terminal has none; call after `newterm`.
    init(noColor: Bool) {
        guard !noColor, has_colors(), start_color() != ERR else {
            usesColor = false
            colorCount = 0
            pairLimit = 0
            hasDefaultColors = false
            return
        }
        usesColor = true
        hasDefaultColors = use_default_colors() != ERR
        colorCount = Int(cncurses_colors())
        pairLimit = min(Int(cncurses_color_pairs()), Int(Int16.max))
    }

    /// The attributes and color pair that draw `style`.
    func attributes(for style: CellStyle) -> (attributes: attr_t, pair: Int16) {
        var attributes = cncurses_a_normal()
        if style.bold { attributes |= cncurses_a_bold() }
        if style.reverse { attributes |= cncurses_a_reverse() }
        if style.underline { attributes |= cncurses_a_underline() }
        if style.dim { attributes |= cncurses_a_dim() }
        return (attributes, pair(style.foreground, style.background))
    }

    private func pair(_ foreground: TerminalColor, _ background: TerminalColor) -> Int16 {
        guard usesColor, foreground != .default || background != .default else { return 0 }
        let combination = ColorCombination(foreground: foreground, background: background)
        if let pair = pairs[combination] { return pair }
        let number = pairs.count + 1
        guard number < pairLimit else { return 0 }
        let made = init_pair(
            Int16(number), index(of: foreground, default: 7), index(of: background, default: 0))
        guard made != ERR else { return 0 }
        pairs[combination] = Int16(number)
        return Int16(number)
    }

    /// The curses color number: the terminal's default (-1) where it allows
    /// one, and the base colors for bright ones on an 8-color terminal.
    private func index(of color: TerminalColor, default fallback: Int16) -> Int16 {
        let index = color.paletteIndex
        if index < 0 { return hasDefaultColors ? -1 : fallback }
        return Int16(index < colorCount ? index : index % 8)
    }
}
