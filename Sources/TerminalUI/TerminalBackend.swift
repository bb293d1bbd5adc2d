/// A terminal the app draws to and reads from: curses for real, headless for tests.
///
/// The app draws a whole `Canvas` each frame; the backend shows it (curses
/// sends only the cells that changed). All calls come from the main actor,
/// which owns the terminal.
@MainActor
public protocol TerminalBackend: AnyObject {
    /// The terminal's current size in cells.
    var size: Size { get }

    /// Shows `canvas` and puts the cursor at `cursor`, or hides it when nil.
    ///
    /// A canvas of another size than the terminal is clipped, or padded with blanks.
    func draw(_ canvas: Canvas, cursor: Point?)

    /// The next input event, waiting at most `timeout` (forever when nil).
    ///
    /// - Returns: The event, or nil when the timeout passed first.
    func nextEvent(timeout: Duration?) -> InputEvent?

    /// Turns mouse reporting on or off.
    ///
    /// While it is on, the terminal's own text selection usually needs Shift.
    func setMouseCapture(_ on: Bool)

    /// Puts `text` on the terminal's clipboard (OSC 52), for other programs to paste, where the
    /// terminal takes it; a terminal that does not, ignores it.
    func copyToClipboard(_ text: String)

    /// Gives the terminal back and stops the process group (like Ctrl-Z in a
    /// shell); returns after the user resumes it, with the screen drawn again.
    func suspend()

    /// Gives the terminal back for good. Further calls do nothing.
    func shutdown()
}
