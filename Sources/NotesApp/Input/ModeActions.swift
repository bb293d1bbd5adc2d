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
