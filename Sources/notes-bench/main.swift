import Foundation

// notes-bench: measures the undo engine and the app against baselines run side by side.
let exitCode: Int32
switch BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    FileHandle.standardError.write(Data("notes-bench: \(error)\n\(BenchOptions.usage)\n".utf8))
    exitCode = 2
case .success(.help):
    print(BenchOptions.usage)
    exitCode = 0
case .success(.peakMemoryChild(let notebook)):
    exitCode = PeakMemory.runChild(notebook: notebook)
case .success(.benchmark(let options)):
    exitCode = BenchRunner.run(options)
}
exit(exitCode)
