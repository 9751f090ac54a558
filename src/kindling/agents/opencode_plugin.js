%(marker)s
// (`kindling init --opencode --uninstall` removes it). It hands OpenCode's events to
// `kindling hook --agent opencode`, detached: it never waits and never throws.
import { spawn, spawnSync } from "node:child_process";

const KINDLING = %(argv)s;
// Tools whose calls Kindling never records (its `skip_tools`, in OpenCode's names, and its
// own MCP tools): no process is started for them.
const SKIP = new Set(%(skip)s);
const OWN = %(own)s;

function send(event, data) {
  try {
    const args = [...KINDLING.slice(1), "hook", "--agent", "opencode", event];
    const child = spawn(KINDLING[0], args, {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ hook_event_name: event, ...data }));
    child.unref();
  } catch {}
}

// Memory for a session: `kindling hook ... session.start` prints Claude Code's hook output;
// its additionalContext goes into the system prompt. Never throws; null after 8 s.
function context(directory, sessionID) {
  return new Promise((resolve) => {
    try {
      const args = [...KINDLING.slice(1), "hook", "--agent", "opencode", "session.start"];
      const child = spawn(KINDLING[0], args, { stdio: ["pipe", "pipe", "ignore"] });
      const chunks = [];
      const timer = setTimeout(() => { try { child.kill(); } catch {} resolve(null); }, 8000);
      child.on("error", () => { clearTimeout(timer); resolve(null); });
      child.stdin.on("error", () => {});
      child.stdout.on("data", (chunk) => chunks.push(chunk));
      child.on("close", () => {
        clearTimeout(timer);
        try {
          const out = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
          const hook = out && out.hookSpecificOutput;
          resolve((hook && hook.additionalContext) || null);
        } catch { resolve(null); }
      });
      child.stdin.end(JSON.stringify({ hook_event_name: "session.start", directory, sessionID }));
    } catch { resolve(null); }
  });
}

export const KindlingPlugin = async ({ directory }) => {
  const roles = new Map(); // message id -> role, for the sessions still running
  const last = new Map(); // session id -> text of its last assistant text part
  const memory = new Map(); // session id -> its context (a promise), asked once
  const open = new Set(); // the sessions this process saw, closed when it exits
  process.on("exit", () => {
    for (const sessionID of open) {
      try {
        const args = [...KINDLING.slice(1), "hook", "--agent", "opencode", "session.end"];
        const input = JSON.stringify({
          hook_event_name: "session.end", directory, sessionID,
          lastAssistantText: last.get(sessionID) ?? null,
        });
        spawnSync(KINDLING[0], args, { input, stdio: ["pipe", "ignore", "ignore"], timeout: 3000 });
      } catch {}
    }
  });
  return {
    "experimental.chat.system.transform": async (input, output) => {
      try {
        const sessionID = input && input.sessionID;
        if (!sessionID || !output || !Array.isArray(output.system)) return;
        open.add(sessionID);
        if (!memory.has(sessionID)) memory.set(sessionID, context(directory, sessionID));
        const text = await memory.get(sessionID);
        if (text) output.system.push(text);
      } catch {}
    },
    "tool.execute.after": async (input, output) => {
      const tool = input && typeof input.tool === "string" ? input.tool : "";
      if (SKIP.has(tool) || tool.startsWith(OWN)) return;
      send("tool.execute.after", { directory, input, output });
    },
    "chat.message": async (input, output) => {
      try {
        // A session's context is asked for before its first prompt is recorded: else the
        // prompt would be its own session's memory. Sent after, never awaited.
        const data = JSON.parse(JSON.stringify({ directory, input, output }));
        const sessionID = input && input.sessionID;
        if (sessionID && !memory.has(sessionID)) {
          memory.set(sessionID, context(directory, sessionID));
        }
        const asked = sessionID ? memory.get(sessionID) : Promise.resolve(null);
        asked.finally(() => send("chat.message", data));
      } catch {}
    },
    event: async ({ event }) => {
      try {
        const props = event.properties || {};
        if (event.type === "message.updated" && props.info) {
          roles.set(props.info.id, props.info.role);
        } else if (event.type === "message.part.updated" && props.part) {
          const part = props.part;
          if (part.type === "text" && roles.get(part.messageID) === "assistant") {
            last.set(part.sessionID, part.text);
          } else if (part.type === "tool" && part.state && part.state.status === "error") {
            send("message.part.updated", { directory, event });
          }
        } else if (event.type === "session.deleted" && props.info) {
          open.delete(props.info.id);
          const text = last.get(props.info.id) ?? null;
          send("session.deleted", { directory, event, lastAssistantText: text });
        } else if (event.type === "session.idle" || event.type === "session.error") {
          const session = props.sessionID;
          send(event.type, { directory, event, lastAssistantText: last.get(session) ?? null });
          last.delete(session);
          if (roles.size > 10000) roles.clear();
        }
      } catch {}
    },
  };
};
