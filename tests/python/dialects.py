"""The provider dialects against the providers' own SDKs (pinned in
tests/python/requirements.txt).

Every definitions list libaikido writes, with and without strict mode, is
validated with the SDK's tool types; the model replies under test are built
with the SDKs' response types and serialised as the SDKs do; what
aikido_registry_respond returns is validated with the SDKs' message and
input types. TypedDicts drop unknown keys silently, so each validated value
is also compared with what went in. Runs over ctypes against
target/release/libaikido.so; prints "python dialects: N passed, N failed".
"""

import ctypes
import json
import os
import sys
import traceback
from typing import List

from pydantic import TypeAdapter

import anthropic.types as anthropic_types
import mcp.types as mcp_types
from google.genai import types as genai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessage,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionToolMessageParam,
    ChatCompletionToolParam,
)
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message_function_tool_call import Function
from openai.types.responses import (
    FunctionToolParam,
    Response,
    ResponseFunctionToolCall,
    ResponseReasoningItem,
)
from openai.types.responses.response_input_param import FunctionCallOutput

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
lib = ctypes.CDLL(os.environ.get("AIKIDO_SO", os.path.join(ROOT, "target", "release", "libaikido.so")))

HANDLER = ctypes.CFUNCTYPE(
    ctypes.c_int32, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p
)
lib.aikido_registry_new.restype = ctypes.c_void_p
lib.aikido_registry_free.argtypes = [ctypes.c_void_p]
lib.aikido_registry_register.argtypes = [
    ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, HANDLER, ctypes.c_void_p, ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p)]
lib.aikido_reply_set_content.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.aikido_reply_set_error.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.aikido_string_free.argtypes = [ctypes.c_void_p]
lib.aikido_registry_definitions_for.argtypes = [
    ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
lib.aikido_tool_calls_parse.argtypes = [
    ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
lib.aikido_registry_respond.argtypes = [
    ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_uint32,
    ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]

NEUTRAL, OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC, GEMINI, MCP = range(6)
STRICT = 1


def take(pointer):
    if not pointer.value:
        return None
    text = ctypes.string_at(pointer.value).decode()
    lib.aikido_string_free(pointer)
    return text


def call(function, *args):
    out, error = ctypes.c_void_p(), ctypes.c_void_p()
    status = function(*args, ctypes.byref(out), ctypes.byref(error))
    return status, take(out), take(error)


@HANDLER
def echo(_userdata, arguments, length, _environment, reply):
    lib.aikido_reply_set_content(reply, arguments, length)
    return 0


@HANDLER
def failing(_userdata, _arguments, _length, _environment, reply):
    lib.aikido_reply_set_error(reply, b"disk full", 9)
    return 5


# Schemas as real tools write them: the seed's helpers, MCP servers' and
# agent frameworks' (pydantic model_json_schema output with $defs, anyOf
# nullables, const, integer enums, formats, nested arrays of objects).
SCHEMAS = {
    "read": {"properties": {"limit": {"description": "Maximum lines.", "type": "integer"},
                            "path": {"description": "File to read.", "type": "string"}},
             "required": ["path"], "type": "object"},
    "fail": None,
    "search": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
               "additionalProperties": False,
               "properties": {"query": {"type": "string", "minLength": 1, "maxLength": 200},
                              "mode": {"enum": ["fast", "deep"], "type": "string", "default": "fast"},
                              "level": {"type": "integer", "enum": [1, 2, 3]},
                              "since": {"type": "string", "format": "date-time"},
                              "email": {"type": "string", "format": "email"},
                              "kind": {"const": "web"},
                              "score": {"type": "number", "minimum": 0, "maximum": 1, "exclusiveMinimum": 0},
                              "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                       "maxItems": 5}},
               "required": ["query"]},
    "create_user": {"$defs": {"Address": {"properties": {"city": {"title": "City", "type": "string"},
                                                          "zip": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                                                  "default": None, "title": "Zip"}},
                                          "required": ["city"], "title": "Address", "type": "object"},
                              "Role": {"enum": ["admin", "user"], "title": "Role", "type": "string"}},
                    "properties": {"name": {"title": "Name", "type": "string"},
                                   "address": {"$ref": "#/$defs/Address"},
                                   "roles": {"items": {"$ref": "#/$defs/Role"}, "title": "Roles", "type": "array"},
                                   "age": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
                                   "nickname": {"type": ["string", "null"]}},
                    "required": ["name", "address"], "title": "CreateUser", "type": "object"},
    "edit-file": {"type": "object",
                  "properties": {"path": {"type": "string"},
                                 "edits": {"type": "array", "items": {
                                     "type": "object",
                                     "properties": {"old": {"type": "string"}, "new": {"type": "string"}},
                                     "required": ["old", "new"], "additionalProperties": False}},
                                 "dry_run": {"type": "boolean", "default": False}},
                  "required": ["path", "edits"]},
    "no_type": {"properties": {"x": {"type": "string"}}},
}

passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def same(name, validated, original):
    check(name, validated == original, f"\n  validated {validated!r}\n  original  {original!r}")


def run(name, body):
    try:
        body()
    except Exception:  # noqa: BLE001 - a failing case must not stop the others
        global failed
        failed += 1
        print(f"FAIL {name}: exception")
        traceback.print_exc()


registry = lib.aikido_registry_new()
for tool, schema in SCHEMAS.items():
    status = lib.aikido_registry_register(
        registry, tool.encode(), f"The {tool} tool.".encode(),
        None if schema is None else json.dumps(schema).encode(),
        failing if tool == "fail" else echo, None, None, None)
    assert status == 0, (tool, status)


def definitions(dialect, flags):
    status, out, error = call(lib.aikido_registry_definitions_for, registry, dialect, flags)
    assert status == 0, error
    return json.loads(out)


def respond(dialect, reply, flags=0):
    text = json.dumps(reply).encode()
    status, out, error = call(lib.aikido_registry_respond, registry, dialect, text, len(text), None, flags)
    assert status == 0, error
    return json.loads(out)


def parse(dialect, reply):
    text = json.dumps(reply).encode()
    status, out, error = call(lib.aikido_tool_calls_parse, dialect, text, len(text))
    assert status == 0, error
    return json.loads(out)


def test_definitions():
    for flags in (0, STRICT):
        tools = definitions(OPENAI_CHAT, flags)
        check("chat count", len(tools) == len(SCHEMAS))
        same(f"chat tools flags={flags}", TypeAdapter(List[ChatCompletionToolParam]).validate_python(tools), tools)
        tools = definitions(OPENAI_RESPONSES, flags)
        same(f"responses tools flags={flags}", TypeAdapter(List[FunctionToolParam]).validate_python(tools), tools)
        check("responses strict", all(tool["strict"] == bool(flags) for tool in tools))
        tools = definitions(ANTHROPIC, flags)
        same(f"anthropic tools flags={flags}",
             TypeAdapter(List[anthropic_types.ToolParam]).validate_python(tools), tools)
        check("anthropic object schemas", all(tool["input_schema"]["type"] == "object" for tool in tools))
        if flags:
            check("anthropic strict flag", all(tool["strict"] is True for tool in tools))
            for tool in tools:
                walk_strict(tool["name"], tool["input_schema"])
        tools = definitions(GEMINI, flags)
        for tool in tools:
            validated = genai.Tool.model_validate(tool)
            same(f"gemini tool flags={flags}",
                 validated.model_dump(mode="json", by_alias=True, exclude_none=True), tool)
        names = [declaration["name"] for declaration in tools[0]["functionDeclarations"]]
        check("gemini names", names == list(SCHEMAS), names)
        result = definitions(MCP, flags)
        validated = mcp_types.ListToolsResult.model_validate(result)
        same("mcp list", validated.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_unset=True),
             result)


def walk_strict(tool, schema, top=True):
    """Strict mode as OpenAI and Anthropic document it, at every object."""
    if not isinstance(schema, dict):
        return
    if "properties" in schema:
        check(f"{tool} strict additionalProperties", schema.get("additionalProperties") is False, schema)
        check(f"{tool} strict required", sorted(schema.get("required", [])) == sorted(schema["properties"]), schema)
    for key in ("allOf", "oneOf", "not"):
        check(f"{tool} strict no {key}", key not in schema)
    for value in list(schema.get("properties", {}).values()) + list(schema.get("$defs", {}).values()) + \
            schema.get("anyOf", []) + ([schema["items"]] if isinstance(schema.get("items"), dict) else []):
        walk_strict(tool, value, False)


def test_openai_chat():
    completion = ChatCompletion(
        id="chatcmpl-1", object="chat.completion", created=1700000000, model="gpt-5",
        choices=[Choice(index=0, finish_reason="tool_calls", message=ChatCompletionMessage(
            role="assistant", content=None, tool_calls=[
                ChatCompletionMessageFunctionToolCall(id="call_a", type="function", function=Function(
                    name="read", arguments='{"path": "/etc/hosts", "limit": 1e400}')),
                ChatCompletionMessageFunctionToolCall(id="call_b", type="function", function=Function(
                    name="read", arguments='{"path": ')),
                ChatCompletionMessageFunctionToolCall(id="call_c", type="function", function=Function(
                    name="fail", arguments="{}")),
                ChatCompletionMessageFunctionToolCall(id="call_d", type="function", function=Function(
                    name="search", arguments='{"query":"x","level":null}')),
            ]))])
    reply = completion.model_dump(mode="json", exclude_none=True)
    messages = respond(OPENAI_CHAT, reply, STRICT)
    check("chat results", [m["tool_call_id"] for m in messages] == ["call_a", "call_b", "call_c", "call_d"])
    for message in messages:
        same("chat tool message", TypeAdapter(ChatCompletionToolMessageParam).validate_python(message), message)
    check("chat exact arguments", messages[0]["content"] == '{"path": "/etc/hosts", "limit": 1e400}', messages[0])
    check("chat broken arguments", messages[1]["content"].startswith(
        'aikido/tools: invalid tool arguments for tool "read": the arguments are not valid JSON'), messages[1])
    check("chat failure", messages[2]["content"] == "disk full")
    check("chat strict undo", json.loads(messages[3]["content"]) == {"query": "x"}, messages[3])
    # The assistant message alone reads the same.
    message_only = reply["choices"][0]["message"]
    check("chat message only", respond(OPENAI_CHAT, message_only, STRICT) == messages)
    calls = parse(OPENAI_CHAT, reply)
    check("chat parse", [c["id"] for c in calls] == ["call_a", "call_b", "call_c", "call_d"]
          and calls[1]["arguments"] == '{"path": ', calls)


def test_openai_responses():
    response = Response(
        id="resp_1", object="response", created_at=1700000000, model="gpt-5", parallel_tool_calls=True,
        tool_choice="auto", tools=[], output=[
            ResponseReasoningItem(id="rs_1", type="reasoning", summary=[]),
            ResponseFunctionToolCall(id="fc_1", call_id="call_1", type="function_call", name="read",
                                     arguments='{"path":"/a"}', status="completed"),
            ResponseFunctionToolCall(id="fc_2", call_id="call_2", type="function_call", name="nope",
                                     arguments="{}", status="completed"),
        ])
    reply = response.model_dump(mode="json", exclude_none=True)
    items = respond(OPENAI_RESPONSES, reply)
    check("responses keyed by call_id", [i["call_id"] for i in items] == ["call_1", "call_2"], items)
    for item in items:
        same("responses output item", TypeAdapter(FunctionCallOutput).validate_python(item), item)
    check("responses content", items[0]["output"] == '{"path":"/a"}')
    check("responses unknown tool", items[1]["output"].startswith('aikido/tools: unknown tool "nope"'))
    check("responses output array", respond(OPENAI_RESPONSES, reply["output"]) == items)


def test_anthropic():
    message = anthropic_types.Message(
        id="msg_1", type="message", role="assistant", model="claude-sonnet-4-5", stop_reason="tool_use",
        stop_sequence=None, usage=anthropic_types.Usage(input_tokens=10, output_tokens=20),
        content=[
            anthropic_types.TextBlock(type="text", text="I will look.", citations=None),
            anthropic_types.ToolUseBlock(type="tool_use", id="toolu_1", name="read",
                                         input={"path": "/tmp/x", "limit": 20}),
            anthropic_types.ToolUseBlock(type="tool_use", id="toolu_2", name="fail", input={}),
            anthropic_types.ToolUseBlock(type="tool_use", id="toolu_3", name="create_user",
                                         input={"name": "Ada", "address": {"city": "London", "zip": None},
                                                "roles": ["admin"], "age": None, "nickname": None}),
        ])
    reply = message.model_dump(mode="json", exclude_none=True)
    result = respond(ANTHROPIC, reply, STRICT)
    check("anthropic one message", len(result) == 1, result)
    validated = TypeAdapter(anthropic_types.MessageParam).validate_python(result[0])
    # MessageParam's content is an Iterable, validated lazily: the blocks are
    # compared one by one below, as ToolResultBlockParam.
    same("anthropic message param", {"role": validated["role"]}, {"role": result[0]["role"]})
    check("anthropic message keys", sorted(result[0]) == ["content", "role"], result[0])
    blocks = result[0]["content"]
    for block in blocks:
        same("anthropic tool_result", TypeAdapter(anthropic_types.ToolResultBlockParam).validate_python(block), block)
    check("anthropic order", [b["tool_use_id"] for b in blocks] == ["toolu_1", "toolu_2", "toolu_3"])
    check("anthropic exact input", blocks[0]["content"] == '{"path":"/tmp/x","limit":20}', blocks[0])
    check("anthropic is_error", "is_error" not in blocks[0] and blocks[1].get("is_error") is True)
    check("anthropic strict undo nested", json.loads(blocks[2]["content"]) ==
          {"name": "Ada", "address": {"city": "London"}, "roles": ["admin"]}, blocks[2])
    without = respond(ANTHROPIC, reply)[0]["content"][2]
    check("anthropic no strict keeps nulls", json.loads(without["content"])["age"] is None, without)
    check("anthropic content array", respond(ANTHROPIC, reply["content"], STRICT) == result)


def test_gemini():
    response = genai.GenerateContentResponse(candidates=[genai.Candidate(
        finish_reason="STOP",
        content=genai.Content(role="model", parts=[
            genai.Part(text="Let me think.", thought=True),
            genai.Part(function_call=genai.FunctionCall(name="read", args={"path": "/g", "limit": 3}),
                       thought_signature=b"signature-bytes"),
            genai.Part(function_call=genai.FunctionCall(name="fail", args={})),
            genai.Part(function_call=genai.FunctionCall(id="fc-3", name="search", args={"query": "q"})),
            genai.Part(text="Working on it."),
        ]))])
    reply = response.model_dump(mode="json", by_alias=True, exclude_none=True)
    result = respond(GEMINI, reply)
    check("gemini one content", len(result) == 1, result)
    content = genai.Content.model_validate(result[0])
    same("gemini content", content.model_dump(mode="json", by_alias=True, exclude_none=True), result[0])
    parts = result[0]["parts"]
    check("gemini order by position", [p["functionResponse"]["name"] for p in parts] == ["read", "fail", "search"])
    check("gemini id kept only when sent", "id" not in parts[0]["functionResponse"]
          and parts[2]["functionResponse"]["id"] == "fc-3", parts)
    check("gemini output", json.loads(parts[0]["functionResponse"]["response"]["output"]) == {"path": "/g", "limit": 3})
    check("gemini error", parts[1]["functionResponse"]["response"] == {"error": "disk full"}, parts[1])
    check("gemini candidate content", respond(GEMINI, reply["candidates"][0]["content"]) == result)
    check("gemini parse", len(parse(GEMINI, reply)) == 3)


def test_mismatched():
    message = anthropic_types.Message(
        id="msg_1", type="message", role="assistant", model="claude", stop_reason="tool_use", stop_sequence=None,
        usage=anthropic_types.Usage(input_tokens=1, output_tokens=1),
        content=[anthropic_types.ToolUseBlock(type="tool_use", id="t", name="read", input={"path": "/"})])
    text = message.model_dump_json(exclude_none=True).encode()
    for dialect in (OPENAI_CHAT, OPENAI_RESPONSES, GEMINI):
        status, out, error = call(lib.aikido_registry_respond, registry, dialect, text, len(text), None, 0)
        check(f"foreign reply refused by {dialect}", status == 6 and out is None and "Anthropic" in error, error)


for name, test in list(globals().items()):
    if name.startswith("test_") and callable(test):
        run(name, test)
lib.aikido_registry_free(registry)
print(f"python dialects: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 else 1)
