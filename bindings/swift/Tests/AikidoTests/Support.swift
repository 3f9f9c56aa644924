import Aikido
import CAikido
import Foundation
import XCTest

/// The repository's top folder (this file is bindings/swift/Tests/AikidoTests/Support.swift).
let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { url.deleteLastPathComponent() }
    return url
}()

/// A thread-safe counter, for handlers that run on many threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Counts its deinits: captured by a handler, it goes when the handler goes.
final class ReleaseProbe: Sendable {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.increment() }
}

/// An error a handler throws, with a text of its own.
struct TextError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The seed's divisor schema, built by the helpers.
func divisorSchema() throws -> JSONSchema {
    try .object(["by": .integer("Divisor.")], required: ["by"])
}

/// A registry with one tool answering `content`.
func makeRegistry(with name: String = "probe", parameters: JSONSchema? = nil, handler: @escaping Handler) throws -> Registry {
    let registry = Registry()
    try registry.register(ToolDefinition(name: name, parameters: parameters), handler: handler)
    return registry
}

/// Asserts that `body` throws an AikidoError of `status` whose message holds `fragment`.
func assertAikidoError<T>(
    _ status: Int32, _ fragment: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("no error; want status \(status) with \"\(fragment)\"", file: file, line: line)
    } catch let error as AikidoError {
        XCTAssertEqual(error.statusName, AikidoLibrary.statusName(status), error.message, file: file, line: line)
        XCTAssertTrue(
            fragment.isEmpty || error.message.contains(fragment), "\"\(error.message)\" lacks \"\(fragment)\"", file: file, line: line)
    } catch {
        XCTFail("not an AikidoError: \(error)", file: file, line: line)
    }
}

/// Waits, up to `seconds`, until `condition` holds.
func eventually(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}
