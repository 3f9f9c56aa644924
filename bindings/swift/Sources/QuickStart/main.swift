import Aikido

struct Greeting: Decodable { let name: String }

let registry = Registry()
try registry.register(
    ToolDefinition(
        name: "greet", description: "Greet a person by name.",
        parameters: try .object(["name": .string("Who to greet.")], required: ["name"]))
) { arguments, _ in
    ToolResult(content: "Hello, \(try arguments.decode(Greeting.self).name)!")
}
print(try registry.definitionsJSON())
for arguments in [#"{"name":"Ada"}"#, "{}"] {
    do {
        let result = try registry.dispatch(ToolCall(id: "call-1", name: "greet", arguments: arguments))
        print("ok: \(result.content)")
    } catch let error as AikidoError {
        print("\(error.statusName): \(error.message)")
    }
}
