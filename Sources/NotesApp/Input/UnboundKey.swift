import TerminalUI

/// What the status line says for a key that does nothing where it was pressed: that it does
/// nothing, naming F1; or, for the keys nano and micro users press out of habit, what to press
/// here instead. No key goes unanswered.
enum UnboundKey {
    /// Where a key was pressed, for what to suggest instead.
    enum Place {
        case list, article, history, picker
    }

    static func message(for key: Key, in place: Place) -> String {
        let name = key.name
        if let instead = habit(key, in: place) {
            return "\(name): \(instead)" + (instead.contains("F1") ? "" : " · F1: keys")
        }
        return "\(name) does nothing here · F1: keys"
    }

    /// What nano's and micro's keys, which do something else or nothing here, point to.
    private static func habit(_ key: Key, in place: Place) -> String? {
        guard case .control(let letter) = key else { return nil }
        switch (letter, place) {
        // Short enough for 80 columns, after "Pane 1 │ ".
        case ("c", _): return "copies in an open article"
        case ("v", _): return "pastes in an open article"
        case ("k", .article): return "Ctrl-X cuts the line here"
        case ("u", .article): return "Ctrl-V pastes here"
        case ("f", .list): return "/ searches the list"
        case ("f", _): return "Esc, then / searches the list"
        case ("o", _): return "notes saves every change as you make it"
        case ("g", _): return "the keys are on F1"
        default: return nil
        }
    }
}

extension Key {
    /// The key as help and messages name it: "Ctrl-K", "Alt-X", "F5", "Ctrl-Left", "Shift-F3", "x".
    var name: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control("@"): "Ctrl-Space"
        case .control(let character): "Ctrl-\(character.uppercased())"
        case .alt(let character): "Alt-\(character.uppercased())"
        case .function(let number): "F\(number)"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .home: "Home"
        case .end: "End"
        case .controlHome: "Ctrl-Home"
        case .controlEnd: "Ctrl-End"
        case .controlLeft: "Ctrl-Left"
        case .controlRight: "Ctrl-Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .insert: "Insert"
        case .delete: "Delete"
        case .controlDelete: "Ctrl-Delete"
        case .backspace: "Backspace"
        case .controlBackspace: "Ctrl-Backspace"
        case .altBackspace: "Alt-Backspace"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .shift(let key): "Shift-\(key.name)"
        }
    }
}
