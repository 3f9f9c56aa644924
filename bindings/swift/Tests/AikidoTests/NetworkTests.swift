import Aikido
import CAikido
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP server on 127.0.0.1 for the tests, on a thread of its own:
/// answers each request with `METHOD token=VALUE` (its X-Token header) and
/// closes the connection. It ends after `requests` connections, on `stop()`,
/// or after 10 seconds without one.
final class LoopbackServer: Sendable {
    let port: UInt16
    private let listener: Int32

    init(requests: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TextError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw TextError("bind or listen on 127.0.0.1: errno \(errno)")
        }
        LoopbackServer.setTimeout(listener, seconds: 10)
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            for _ in 0..<requests {
                let client = accept(listener, nil, nil)
                if client < 0 { break }
                LoopbackServer.answer(client)
                close(client)
            }
            close(listener)
        }
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// Wakes a waiting `accept`, which ends the server's thread.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private static func setTimeout(_ socket: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads one request's head and answers it.
    private static func answer(_ client: Int32) {
        setTimeout(client, seconds: 5)
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let method = lines[0].split(separator: " ").first.map(String.init) ?? ""
        let token =
            lines.first { $0.lowercased().hasPrefix("x-token:") }
            .map { $0.dropFirst("x-token:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        let body = "\(method) token=\(token)\n"
        let response =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = Array(response.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

final class NetworkTests: XCTestCase {
    func testWithoutAPolicyCurlIsRefused() throws {
        let result = try Shell(storage: Storage.memory()).run("curl http://127.0.0.1:1/api")
        XCTAssertEqual(result.exitCode, 7)
        XCTAssertEqual(result.errorOutput, "curl: (7) the network is off in this shell: no network policy allows any URL\n")
        XCTAssertEqual(result.output, "")
    }

    func testAPolicyRefusesWhatItDoesNotAllow() throws {
        let network = try NetworkPolicy().allowURL("http://127.0.0.1:1/api").allowAddress("127.0.0.1/32")
        let shell = Shell(storage: Storage.memory(), network: network)
        let other = try shell.run("curl http://127.0.0.1:1/other")
        XCTAssertEqual(other.exitCode, 7)
        XCTAssertEqual(
            other.errorOutput, "curl: (7) the network policy refused http://127.0.0.1:1/other: no allowed URL prefix covers it\n")
        let post = try shell.run("curl -X POST http://127.0.0.1:1/api/x")
        XCTAssertEqual(post.exitCode, 7)
        XCTAssertTrue(post.errorOutput.contains("the network policy refused the method POST"), post.errorOutput)
        // Allowed: the connection to port 1 is what fails, not the policy.
        let allowed = try shell.run("curl http://127.0.0.1:1/api/x")
        XCTAssertEqual(allowed.exitCode, 7)
        XCTAssertFalse(allowed.errorOutput.contains("network policy"), allowed.errorOutput)
        XCTAssertFalse(allowed.errorOutput.contains("network is off"), allowed.errorOutput)
    }

    func testBadRulesThrowTheLibrarysMessage() {
        let network = NetworkPolicy()
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "only http and https URLs can be allowed") { try network.allowURL("ftp://x.example/") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "a prefix has no query or fragment") { try network.allowURL("https://x.example/?q=1") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "not an address or CIDR range") { try network.allowAddress("10.0.0.0/99") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL") { try network.allowMethod("PO\0ST") }
        assertAikidoError(AIKIDO_ERR_INVALID_INPUT, "NUL") {
            try network.attachHeader("X-Token", value: "a\0b", under: "https://x.example/")
        }
    }

    func testALoopbackFetchWithAnAttachedHeaderAndLimits() throws {
        let server = try LoopbackServer(requests: 8)
        defer { server.stop() }
        let network = try NetworkPolicy()
            .allowURL(server.base + "/")
            .allowAddress("127.0.0.1")
            .allowMethod("POST")
            .attachHeader("X-Token", value: "s3cret", under: server.base + "/")
        let shell = Shell(storage: Storage.memory(), network: network)
        let fetched = try shell.run("curl -s \(server.base)/x")
        XCTAssertEqual(fetched.output, "GET token=s3cret\n", fetched.errorOutput)
        XCTAssertEqual(fetched.exitCode, 0)
        let posted = try shell.run("curl -sv -X POST \(server.base)/x")
        XCTAssertEqual(posted.output, "POST token=s3cret\n", posted.errorOutput)
        XCTAssertFalse(posted.errorOutput.contains("s3cret"), "the script sees the attached value: \(posted.errorOutput)")

        // A shell took a copy: the limits set now bind only shells made after.
        try network.setLimits(NetworkLimits(maxResponseBytes: 4, maxRequests: 1))
        let limited = Shell(storage: Storage.memory(), network: network)
        let cut = try limited.run("curl -s \(server.base)/x")
        XCTAssertEqual(cut.exitCode, 63, cut.errorOutput)
        let twice = try limited.run("curl -s -o /dev/null \(server.base)/x; curl \(server.base)/x")
        XCTAssertEqual(twice.exitCode, 7)
        XCTAssertTrue(twice.errorOutput.contains("the network policy's request limit (1 per run) is reached"), twice.errorOutput)
        XCTAssertEqual(try shell.run("curl -s \(server.base)/x").output, "GET token=s3cret\n")
    }

    func testTheBashToolWithANetworkPolicy() throws {
        let registry = Registry()
        let network = try NetworkPolicy().allowURL("http://127.0.0.1:1/api").allowAddress("127.0.0.1/32")
        try registry.registerShellTool(storage: Storage.memory(), network: network)
        let arguments = String(decoding: try JSONEncoder().encode(["command": "curl -s http://127.0.0.1:1/other"]), as: UTF8.self)
        let content = try registry.dispatch(ToolCall(name: "bash", arguments: arguments)).content
        XCTAssertEqual(
            content,
            "[stderr]\ncurl: (7) the network policy refused http://127.0.0.1:1/other: no allowed URL prefix covers it\n[exit code: 7]")
        assertAikidoError(AIKIDO_ERR_DUPLICATE_TOOL, "bash") { try registry.registerShellTool(storage: Storage.memory(), network: network) }
    }
}
