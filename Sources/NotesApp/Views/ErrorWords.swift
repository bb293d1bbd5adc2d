import SQLiteDatabase
import SQLiteUndo

/// An error as the status line says it: what happened, in words a person can act on, without
/// SQL, result codes or Swift type names (those are for logs and tests, not for the screen).
enum ErrorWords {
    /// Why a write that will be tried again did not happen now: like `describe`, without
    /// asking the person to try again.
    static func describeWait(_ error: any Error) -> String {
        switch SQLiteError(unwrapping: error)?.code.primary {
        case .busy, .locked: "another program is writing to the notebook"
        default: describe(error)
        }
    }

    static func describe(_ error: any Error) -> String {
        if case .replayFailed(let barrier, let reason, let underlying) = error as? UndoError {
            let why = underlying.map(describe) ?? reason
            return "could not take back “\(barrier)”: \(why); nothing was changed"
        }
        guard let sqlite = SQLiteError(unwrapping: error) else { return "\(error)" }
        switch sqlite.code.primary {
        case .busy, .locked:
            return "the notebook is busy: another program is writing to it; try again"
        case .full:
            return "the disk is full"
        case .readOnly:
            return "the notebook cannot be written (read-only)"
        case .ioError:
            return "the disk could not be read or written"
        case .corrupt, .notADatabase:
            return "the notebook file is damaged"
        case .constraint:
            return "that breaks a rule of the notebook (\(sqlite.message))"
        default:
            return sqlite.message
        }
    }
}
