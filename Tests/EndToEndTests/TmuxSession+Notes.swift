import Foundation
import TestSupport

extension TmuxSession {
    /// The `notes` executable built next to this test bundle.
    static var notesBinary: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notes").path
    }

    /// Starts `notes` with `arguments` in a detached tmux session of `width` x `height`.
    convenience init(
        arguments: [String], width: Int = 120, height: Int = 40, folder: TemporaryFolder
    ) throws {
        try self.init(
            program: [Self.notesBinary] + arguments, width: width, height: height, folder: folder)
    }
}
