import Foundation

/// Progress lines on stderr, so stdout holds only the results (the table or the JSON).
enum Progress {
    static func note(_ line: String) {
        FileHandle.standardError.write(Data("notes-bench: \(line)\n".utf8))
    }
}
