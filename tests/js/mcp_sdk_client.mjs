// Drives `kindling mcp` with the official MCP TypeScript SDK client over stdio.
// Usage: node mcp_sdk_client.mjs SDK_DIR CWD CALLS_JSON -- COMMAND ARGS...
// CALLS_JSON: [[name, tool, arguments], ...]; an argument value "$name.path" is taken from an
// earlier result (e.g. "$remember.id"). Prints one JSON object: the tools listed and each
// call's result. The SDK's callTool validates structuredContent against the tool's
// outputSchema (and throws when it does not match): such a failure is printed as
// {"sdkError": message} for that call.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [sdkDir, cwd, callsJson, dashes, command, ...args] = process.argv.slice(2);
if (dashes !== "--") throw new Error("usage: SDK_DIR CWD CALLS_JSON -- COMMAND ARGS...");
const sdk = (p) => pathToFileURL(path.join(sdkDir, "node_modules/@modelcontextprotocol/sdk/dist/esm", p)).href;
const { Client } = await import(sdk("client/index.js"));
const { StdioClientTransport } = await import(sdk("client/stdio.js"));

const transport = new StdioClientTransport({ command, args, cwd, env: process.env, stderr: "ignore" });
const client = new Client({ name: "kindling-tests", version: "1.0.0" });
await client.connect(transport);
const out = { tools: {}, calls: {} };
for (const tool of (await client.listTools()).tools) out.tools[tool.name] = tool;

const resolve = (value) => {
  if (typeof value === "string" && value.startsWith("$")) {
    const [name, ...keys] = value.slice(1).split(".");
    return keys.reduce((v, k) => v[k], out.calls[name].structuredContent);
  }
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  }
  return value;
};
for (const [name, tool, toolArgs] of JSON.parse(callsJson)) {
  try {
    out.calls[name] = await client.callTool({ name: tool, arguments: resolve(toolArgs) });
  } catch (err) {
    out.calls[name] = { sdkError: String(err && err.message ? err.message : err) };
  }
}
await client.close();
process.stdout.write(JSON.stringify(out));
