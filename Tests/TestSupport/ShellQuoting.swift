import Foundation

extension TmuxSession {
    /// `text` as one word of a POSIX shell command, whatever it holds: in single quotes, each
    /// single quote in it closed, escaped and reopened.
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
