// Facts about JavaScript files, from node's own parser, for the runner.
// stdin: {"files": [{"path": str, "text": str}]}
// stdout: [{"error": {"line": n, "message": str} | null,
//           "defs": [{"kind", "name", "signature", "line"}]}]
//
// Syntax: node compiles each file as node would load it (CommonJS, else an
// ES module) with `vm`, so the error is V8's own. Definitions: node exposes
// no syntax tree and no parser library (acorn) is available offline, so
// they are read from the lines of a file that node has just compiled: a
// top-level declaration starts its line at column 0 (`function f(a)`,
// `class C`, `const f = (a) =>`, each maybe `export`ed); nested ones are
// indented. A file node cannot compile has no definitions.
"use strict";
const vm = require("vm");

function place(error, path) {
  const head = String(error.stack || "").split("\n")[0];
  const match = head.match(/:(\d+)$/);
  return { line: match ? Number(match[1]) : 0, message: error.message };
}

async function compile(path, text) {
  try {
    new vm.Script("(function (exports, require, module, __filename, __dirname) {" + text + "\n})", { filename: path });
    return null;
  } catch (script) {
    if (path.endsWith(".cjs")) return place(script, path);
    try {
      const module = new vm.SourceTextModule(text, { identifier: path });
      void module;
      return null;
    } catch (esm) {
      return place(path.endsWith(".mjs") || /^(import|export)\b/m.test(text) ? esm : script, path);
    }
  }
}

const DECLARATION = [
  [/^(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(([^)]*)\)/, "function"],
  [/^(?:export\s+(?:default\s+)?)?class\s+([A-Za-z_$][\w$]*)(?:\s+extends\s+([\w$.]+))?/, "class"],
  [/^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b[^(]*\(([^)]*)\)|\(([^)]*)\)\s*=>|([A-Za-z_$][\w$]*)\s*=>)/, "function"],
];

function definitions(text) {
  const defs = [];
  text.split("\n").forEach((line, at) => {
    for (const [pattern, kind] of DECLARATION) {
      const m = line.match(pattern);
      if (!m) continue;
      const name = m[1];
      const rest = kind === "class" ? (m[2] ? `${name} extends ${m[2]}` : name)
        : `${name}(${(m[2] ?? m[3] ?? m[4] ?? "").trim()})`;
      defs.push({ kind, name, signature: rest, line: at + 1 });
      break;
    }
  });
  return defs;
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const files = JSON.parse(input).files || [];
  const out = [];
  for (const { path, text } of files) {
    const error = await compile(path, text);
    out.push({ error, defs: error ? [] : definitions(text) });
  }
  process.stdout.write(JSON.stringify(out));
}

main();
