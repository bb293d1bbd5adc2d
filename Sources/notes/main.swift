import Foundation
import NotesApp

exit(NotesProgram.run(Array(CommandLine.arguments.dropFirst())))
