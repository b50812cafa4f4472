// qpdf.js runs `qpdf --check` on a batch of PDF files in one node process,
// with qpdf compiled to WebAssembly (npm @neslinesli93/qpdf-wasm):
//
//   node qpdf.js FILE...
//
// prints, as JSON, [{"file": i, "exit": n, "output": "..."}]: qpdf's exit
// code (0 clean, 2 errors, 3 warnings) and what it printed, for the i-th
// FILE (from 0).
"use strict";
const fs = require("fs");
const path = require("path");

async function check(createModule, wasm, file) {
  let output = "";
  const collect = (...args) => { output += args.join(" ") + "\n"; };
  // This build of qpdf binds console.log and console.error when the module
  // is created (it ignores print and printErr): collect them meanwhile.
  const { log, error } = console;
  console.log = console.error = collect;
  let qpdf;
  try {
    qpdf = await createModule({ locateFile: () => wasm, noInitialRun: true, print: collect, printErr: collect });
  } finally {
    console.log = log;
    console.error = error;
  }
  qpdf.FS.writeFile("/in.pdf", fs.readFileSync(file));
  let exit;
  try {
    exit = qpdf.callMain(["--check", "/in.pdf"]);
  } catch (e) {
    // qpdf exits through an ExitStatus exception when it fails.
    exit = e && typeof e.status === "number" ? e.status : 2;
    if (!(e && typeof e.status === "number")) {
      output += String((e && e.stack) || e) + "\n";
    }
  }
  return { exit: exit || 0, output };
}

async function main() {
  const files = process.argv.slice(2);
  const entry = require.resolve("@neslinesli93/qpdf-wasm");
  const createModule = require(entry);
  const wasm = path.join(path.dirname(entry), "qpdf.wasm");
  const results = [];
  for (const [i, file] of files.entries()) {
    // A fresh module per file: qpdf's main is not meant to run twice.
    results.push({ file: i, ...(await check(createModule, wasm, file)) });
  }
  process.stdout.write(JSON.stringify(results));
  // qpdf leaves its exit code as the process's: this script succeeded.
  process.exitCode = 0;
}

main().catch((err) => {
  console.error(String((err && err.stack) || err));
  process.exit(2);
});
