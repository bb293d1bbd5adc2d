/// What a key asks of an open article's editor.
enum EditorAction: Equatable, TypesCharacters {
    case type(Character)
    /// In the title: go to the body; in the body: a new line.
    case enter
    case deleteBackward
    case deleteForward
    case deleteWordBackward
    case deleteWordForward
    /// In the title: go to the body; in the body: a tab.
    case tab
    case switchField
    /// Moves the cursor; clears the selection.
    case move(Motion)
    /// Moves the cursor and selects what it passed over (Shift with a move key).
    case select(Motion)
    /// Copies the selection, or the cursor's line.
    case copy
    /// Cuts the selection, or the cursor's line.
    case cut
    /// Pastes what was copied or cut.
    case paste
    /// Opens the find prompt (Ctrl-F).
    case find
    case findNext
    case findPrevious
}

/// A cursor move in an open article, with or without Shift.
enum Motion: Equatable, Sendable {
    case left
    case right
    case up
    case down
    case wordLeft
    case wordRight
    case lineStart
    case lineEnd
    case textStart
    case textEnd
    case pageUp
    case pageDown

    /// Makes the move in `buffer`; returns whether the cursor moved.
    func apply(to buffer: inout EditorBuffer) -> Bool {
        switch self {
        case .left: buffer.moveLeft()
        case .right: buffer.moveRight()
        case .up: buffer.moveUp()
        case .down: buffer.moveDown()
        case .wordLeft: buffer.moveWordLeft()
        case .wordRight: buffer.moveWordRight()
        case .lineStart: buffer.moveToLineStart()
        case .lineEnd: buffer.moveToLineEnd()
        case .textStart: buffer.moveToStart()
        case .textEnd: buffer.moveToEnd()
        case .pageUp: buffer.pageUp()
        case .pageDown: buffer.pageDown()
        }
    }
}

/// What a key asks while the find prompt (Ctrl-F) is open.
enum FindAction: Equatable, TypesCharacters {
    case type(Character)
    case erase
    case next
    case previous
    /// Enter: the prompt closes at the match.
    case done
    /// Esc: the prompt closes, the cursor goes back where it was.
    case cancel
}

/// What a key asks while a search is typed.
enum SearchAction: Equatable, TypesCharacters {
    case type(Character)
    case erase
    /// Enter: the search stays, the typing ends.
    case keep
    /// Esc: no search.
    case clear
}

/// What a key asks of the author picker.
enum PickerAction: Equatable, TypesCharacters {
    case up
    case down
    case type(Character)
    case erase
    case choose
    case deleteAuthor
    case cancel
}

/// What a key asks of the author picker while it asks whether to delete an author.
enum ConfirmAction: Equatable, Sendable {
    case confirm
    case cancel
}

/// What a key asks of the help screen.
enum HelpAction: Equatable, Sendable {
    case lineUp
    case lineDown
    case pageUp
    case pageDown
    case top
    case bottom
    case close
}

/// What a key asks of a pane's history panel (`HistoryPanel`).
enum HistoryAction: Equatable, Sendable {
    case up
    case down
    case pageUp
    case pageDown
    case top
    case bottom
    /// Go to the selected step: undo (or redo) every step above it.
    case goTo
    /// Take back the selected step only, keeping every later one.
    case takeBack
    case close
}
