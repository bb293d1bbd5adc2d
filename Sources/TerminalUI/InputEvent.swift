/// A key the user pressed, decoded from what the terminal sent.
///
/// Terminals report few modifier combinations reliably, so the set is kept
/// to what every terminal can send: printable text, Ctrl with a letter, Alt
/// (sent as ESC before the key), the named keys, Ctrl on the keys editors move
/// by words with, and Shift on the named keys (which selects text).
public enum Key: Hashable, Sendable {
    /// A printable grapheme, including space and any Unicode text.
    case character(Character)
    /// Ctrl with a letter, lowercased: Ctrl-Z is `.control("z")`.
    ///
    /// Ctrl-I, Ctrl-M and Ctrl-J are indistinguishable from Tab and Enter on
    /// a terminal, and arrive as those; Ctrl-H arrives as Backspace or
    /// Ctrl-Backspace (see `controlBackspace`). Ctrl with
    /// other keys comes as the control byte's character: Ctrl-Space is
    /// `.control("@")`, Ctrl-\ is `.control("\\")`.
    case control(Character)
    /// Alt (or Meta) with a printable grapheme: Alt-U is `.alt("u")`, Alt-1 is `.alt("1")`.
    case alt(Character)
    /// A function key: F1 is `.function(1)`.
    case function(Int)
    /// The Up arrow.
    case up
    /// The Down arrow.
    case down
    /// The Left arrow.
    case left
    /// The Right arrow.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Ctrl-Home (`ESC [ 1 ; 5 H`).
    case controlHome
    /// Ctrl-End (`ESC [ 1 ; 5 F`).
    case controlEnd
    /// Ctrl-Left (`ESC [ 1 ; 5 D`; rxvt's `ESC O d`).
    case controlLeft
    /// Ctrl-Right (`ESC [ 1 ; 5 C`; rxvt's `ESC O c`).
    case controlRight
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward delete).
    case delete
    /// Ctrl-Delete (`ESC [ 3 ; 5 ~`; rxvt's `ESC [ 3 ^`).
    case controlDelete
    /// Backspace.
    case backspace
    /// Ctrl-Backspace: most terminals send it as ^H (BS) when their Backspace sends ^? (DEL),
    /// so ^H reads as this key then (`InputDecoder.readsControlHAsControlBackspace`), and as
    /// Backspace on a terminal whose Backspace sends ^H.
    case controlBackspace
    /// Alt-Backspace (ESC, then DEL or Ctrl-H).
    case altBackspace
    /// Enter or Return.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Escape on its own.
    case escape
    /// Shift with a named key, as xterm reports it (`ESC [ 1 ; 2 C`): Shift-Right is
    /// `.shift(.right)`, Ctrl-Shift-Right `.shift(.controlRight)`, Shift-F3
    /// `.shift(.function(3))`. Shift-Tab is `backTab`, and Shift with a character is the
    /// character.
    indirect case shift(Key)
}

/// A mouse button.
public enum MouseButton: Hashable, Sendable {
    /// The primary button.
    case left
    /// The middle button or wheel click.
    case middle
    /// The secondary button.
    case right
}

/// A mouse action at a cell of the screen.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        /// A button went down.
        case press(MouseButton)
        /// A button went up.
        case release
        /// The wheel turned away from the user (scroll up).
        case wheelUp
        /// The wheel turned toward the user (scroll down).
        case wheelDown
        /// The mouse moved with a button held down.
        case drag
    }

    /// What the mouse did.
    public var kind: Kind
    /// The cell under the pointer, from (0, 0) at the top left.
    public var position: Point

    /// Creates a mouse event.
    public init(kind: Kind, position: Point) {
        self.kind = kind
        self.position = position
    }
}

/// Something that happened at the terminal, for the app's event loop.
public enum InputEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// Text the user pasted (bracketed paste), whole, with newlines as "\n".
    ///
    /// One paste is one event however long it is, so that the app can insert
    /// it as one edit (and one undo step) and never runs its key bindings on it.
    case paste(String)
    /// A click, release, drag or wheel turn.
    case mouse(MouseEvent)
    /// The terminal now has this size; everything should be drawn again.
    case resize(Size)
}
