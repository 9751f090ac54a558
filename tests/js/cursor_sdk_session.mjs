// One local Cursor agent session through Cursor's own SDK (@cursor/sdk, from npm), against a
// stand-in for Cursor's backend that this script serves on 127.0.0.1.
// Usage: node cursor_sdk_session.mjs SDK_DIR CWD STATE_DIR [SETTING_SOURCES]
// (SETTING_SOURCES: which of Cursor's settings layers the agent loads, comma-separated; default
// "project", the files in CWD/.cursor/; "user" is ~/.cursor/.)
// (Node >= 22.13: the SDK's engines field; its bundled tree-sitter binding crashes older Nodes.)
//
// The SDK's local agent runs the tools on this machine and asks the backend only for the model's
// turns: `Agent.create` exchanges the API key (POST /auth/exchange_user_api_key) and checks the
// model (GET /v1/models), `send` opens a Connect stream (agent.v1.AgentService/RunSSE, HTTP/1.1
// for an http:// backend) and posts its own messages with aiserver.v1.BidiService/BidiAppend.
// CURSOR_BACKEND_URL points it here. The stand-in plays a model that asks the client for its
// request context (the SDK loads .cursor/mcp.json, starts the servers and lists their tools),
// calls Kindling's `retrieve` over MCP, runs one shell command, writes one file and answers. The
// SDK loads .cursor/hooks.json and runs the hooks around those steps itself.
//
// The protobuf below is written by hand from the field numbers of the messages the SDK
// declares (agent.v1.AgentServerMessage, ExecServerMessage, ...); only what the stand-in sends
// or reads. Prints, as its last line, one JSON object: the tools the client listed, the MCP,
// shell and write results, the run's status and the SDK messages it streamed.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, cwd, stateDir, sources = "project"] = process.argv.slice(2);
const MARKER = "marker-cursor";
const out = { tools: [], mcp: null, shell: null, write: null, hookAnswered: false, status: null, messages: [] };

// --- protobuf wire format: just enough to write and read the messages below ---
const varint = (n) => {
  const b = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    b.push(byte);
  } while (v);
  return Buffer.from(b);
};
const field = (no, bytes) => Buffer.concat([varint((no << 3) | 2), varint(bytes.length), bytes]);
const str = (no, s) => field(no, Buffer.from(s, "utf8"));
const msg = (no, ...parts) => field(no, Buffer.concat(parts));
const num = (no, n) => Buffer.concat([varint(no << 3), varint(n)]);

function parse(buf) {
  const fields = [];
  let i = 0;
  const read = () => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[i++];
      v |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(read());
    const [no, wt] = [key >> 3, key & 7];
    if (wt === 0) fields.push([no, read()]);
    else if (wt === 2) {
      const len = Number(read());
      fields.push([no, buf.subarray(i, i + len)]);
      i += len;
    } else if (wt === 1) i += 8;
    else if (wt === 5) i += 4;
    else throw new Error(`wire type ${wt}`);
  }
  return fields;
}
const all = (buf, no) => parse(buf).filter(([n]) => n === no).map(([, v]) => v);
const one = (buf, ...path) => path.reduce((b, no) => (b ? all(b, no)[0] : undefined), buf);
const text = (buf, ...path) => one(buf, ...path)?.toString("utf8");

// --- what the stand-in model does, one step per client answer ---
// ExecServerMessage: 1 id, 15 exec_id; 10 request_context_args, 11 mcp_args, 2 shell_args.
const exec = (id, ...body) => msg(2, num(1, id), str(15, `exec-${id}`), ...body);
// McpArgs: 1 name, 2 args (map<string, google.protobuf.Value>), 3 tool_call_id,
// 4 provider_identifier, 5 tool_name, 8 skip_approval, 9 server_identifier.
const queryArg = msg(2, str(1, "query"), msg(2, str(3, MARKER)));
const STEPS = [
  () => exec(1, msg(10)),
  () => exec(2, msg(11, str(1, "kindling-retrieve"), queryArg, str(3, "call_marker_mcp"),
    str(4, "kindling"), str(5, "retrieve"), num(8, 1), str(9, "kindling"))),
  // ShellArgs: 1 command, 2 working_directory, 3 timeout (ms), 4 tool_call_id,
  // 5 simple_commands, 8 parsing_result (ShellCommandParsingResult: 2 executable_commands,
  // each 1 name, 2 args (1 type, 2 value), 3 full_text), 12 skip_approval.
  () => exec(3, msg(2, str(1, `echo ${MARKER}`), str(2, cwd), num(3, 60000),
    str(4, "call_marker_cursor"), str(5, `echo ${MARKER}`),
    msg(8, msg(2, str(1, "echo"), msg(2, str(1, "word"), str(2, MARKER)),
      str(3, `echo ${MARKER}`))), num(12, 1))),
  // WriteArgs: 1 path, 2 file_text, 3 tool_call_id (a new file: afterFileEdit).
  () => exec(4, msg(3, str(1, path.join(cwd, "notes.txt")), str(2, `${MARKER}\n`),
    str(3, "call_marker_write"))),
  // The backend has the client run the hooks that follow the model's own output:
  // execute_hook_args (ExecuteHookArgs: 1 request, ExecuteHookRequest: 8 after_agent_response,
  // AfterAgentResponseRequestQuery: 1 text, 2 conversation_id).
  (conversation) => exec(5, msg(27, msg(1, msg(8, str(1, `Done with ${MARKER}.`),
    str(2, conversation))))),
];
// InteractionUpdate: 1 text_delta (1 text), 14 turn_ended.
const FINISH = [msg(1, msg(1, str(1, `Done with ${MARKER}.`))), msg(1, msg(14))];

function onExecResult(m) {
  const id = Number(one(m, 1) ?? 0n);
  if (id === 1) {
    // request_context_result.success.request_context.tools: McpToolDefinition
    // (1 name, 4 provider_identifier, 5 tool_name)
    const context = one(m, 10, 1, 1);
    for (const tool of context ? all(context, 7) : []) {
      out.tools.push({ name: text(tool, 1), provider: text(tool, 4), tool: text(tool, 5) });
    }
  } else if (id === 2) {
    // mcp_result: 1 success (1 content: 1 text (1 text)), or another case by its number
    // (6 server_not_found, ...)
    const success = one(m, 11, 1);
    out.mcp = success
      ? { text: all(success, 1).map((c) => text(c, 1, 1)).join("") }
      : { case: parse(one(m, 11) ?? Buffer.alloc(0))[0]?.[0] };
  } else if (id === 4) {
    // write_result: 1 success (1 path), or another case by its number
    const success = one(m, 3, 1);
    out.write = success ? { path: text(success, 1) } : { case: parse(one(m, 3))[0]?.[0] };
  } else if (id === 5) {
    out.hookAnswered = one(m, 27) !== undefined; // execute_hook_result
  } else if (id === 3) {
    // shell_result: 1 success (3 exit_code, 5 stdout), or another case (its number)
    const success = one(m, 2, 1);
    out.shell = success
      ? { exitCode: Number(one(success, 3) ?? 0n), stdout: text(success, 5) ?? "" }
      : { case: parse(one(m, 2) ?? Buffer.alloc(0))[0]?.[0] };
  }
  return id;
}

// --- the backend ---
const streams = new Map(); // request id -> { res, step, conversation }
const frame = (flags, body) => {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};
const send = (stream, serverMessage) => stream.res.write(frame(0, serverMessage));
const advance = (stream) => {
  const next = STEPS[stream.step++];
  if (next) return send(stream, next(stream.conversation));
  for (const update of FINISH) send(stream, update);
  stream.res.end(frame(2, Buffer.from("{}")));
};

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    const json = (value) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.url === "/auth/exchange_user_api_key") return json({ accessToken: "not-a-token" });
    if (req.url === "/v1/models") return json({ items: [{ id: "fake-model", displayName: "Fake" }] });
    if (req.url === "/agent.v1.AgentService/RunSSE") {
      const id = text(body.subarray(5), 1); // BidiRequestId.request_id, in a Connect envelope
      res.writeHead(200, { "content-type": "application/connect+proto" });
      streams.set(id, { res, step: 0 });
      return;
    }
    if (req.url === "/aiserver.v1.BidiService/BidiAppend") {
      // BidiAppendRequest: 1 data (hex of an AgentClientMessage), 2 request_id, 4 data_binary
      const data = one(body, 4) ?? Buffer.from(text(body, 1) ?? "", "hex");
      const stream = streams.get(text(body, 2, 1));
      // AgentClientMessage: 1 run_request (AgentRunRequest: 5 conversation_id),
      // 2 exec_client_message
      if (stream && one(data, 1)) {
        stream.conversation = text(data, 1, 5) ?? "";
        advance(stream);
      }
      else if (stream && one(data, 2) && onExecResult(one(data, 2)) === stream.step) advance(stream);
      res.writeHead(200, { "content-type": "application/proto" });
      return res.end();
    }
    // Every other unary call (privacy mode, server config, analytics): an empty answer.
    res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/proto" });
    res.end(req.headers["content-type"]?.includes("json") ? "{}" : "");
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.CURSOR_BACKEND_URL = `http://127.0.0.1:${server.address().port}`;

const sdk = pathToFileURL(path.join(sdkDir, "node_modules/@cursor/sdk/dist/esm/index.js")).href;
const { Agent, Cursor, JsonlLocalAgentStore } = await import(sdk);
Cursor.configure({ local: { store: new JsonlLocalAgentStore(stateDir) } });
try {
  const agent = await Agent.create({
    apiKey: "not-a-key",
    model: { id: "fake-model" },
    local: { cwd, settingSources: sources.split(",") },
  });
  const run = await agent.send(`Recall ${MARKER} and print it with the shell`);
  for await (const m of run.stream()) out.messages.push(m);
  const result = await run.wait();
  out.status = result.status;
  out.error = result.error;
  out.agentId = agent.agentId;
  await agent[Symbol.asyncDispose]();
} catch (err) {
  out.error = String(err && err.stack ? err.stack : err);
}
server.close();
// The SDK logs to stdout too: the result is the last line.
process.stdout.write(`\n${JSON.stringify(out)}\n`);
process.exit(0);
