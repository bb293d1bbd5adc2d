// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "notes",
    products: [
        .library(name: "SQLiteDatabase", targets: ["SQLiteDatabase"]),
        .library(name: "SQLiteUndo", targets: ["SQLiteUndo"]),
        .library(name: "UndoableState", targets: ["UndoableState"]),
        .executable(name: "notes", targets: ["notes"]),
    ],
    traits: [
        .trait(
            name: "UndoDiagnostics",
            description: "Checks foreign keys and the undo log after every replay, and logs it."
        )
    ],
    targets: [
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNCursesW", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite3"]),
        .target(
            name: "SQLiteUndo",
            dependencies: ["SQLiteDatabase"],
            swiftSettings: [.define("UndoDiagnostics", .when(traits: ["UndoDiagnostics"]))]
        ),
        .target(name: "UndoableState"),
        .target(name: "TerminalUI", dependencies: ["CNCursesW"]),
        .target(
            name: "NoteStore",
            dependencies: ["SQLiteDatabase"],
            resources: [
                .embedInCode("../../Resources/welcome-notebook.json"),
                .embedInCode("../../Resources/demo-notebook.json"),
            ]
        ),
        .target(
            name: "NotesApp",
            dependencies: ["NoteStore", "SQLiteUndo", "TerminalUI", "UndoableState"]
        ),
        .executableTarget(name: "notes", dependencies: ["NotesApp"]),
        .executableTarget(
            name: "notes-bench",
            dependencies: ["SQLiteDatabase", "SQLiteUndo", "NoteStore", "NotesApp", "TerminalUI"]
        ),
        .target(name: "TestSupport", dependencies: ["NoteStore"], path: "Tests/TestSupport"),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase", "TestSupport"]),
        .testTarget(
            name: "SQLiteUndoTests", dependencies: ["SQLiteUndo", "TestSupport"],
            swiftSettings: [.define("UndoDiagnostics", .when(traits: ["UndoDiagnostics"]))]
        ),
        .testTarget(name: "UndoableStateTests", dependencies: ["UndoableState"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        .testTarget(name: "NoteStoreTests", dependencies: ["NoteStore", "TestSupport"]),
        .testTarget(name: "NotesAppTests", dependencies: ["NotesApp", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["SQLiteDatabase", "notes", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
