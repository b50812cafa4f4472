// xmllint.js validates files against one XML Schema with libxml2 compiled
// to WebAssembly (npm xmllint-wasm), in one node process:
//
//   node xmllint.js SCHEMA.xsd FILE...
//
// It prints, as JSON, one list per file of libxml2's errors, [] for a
// valid file; a file that is not well-formed XML has its parser errors.
// make einvoice-validators installs xmllint-wasm into bin/xmltools.
"use strict";
const fs = require("fs");

async function main() {
  const [schemaFile, ...files] = process.argv.slice(2);
  const { validateXML } = require("xmllint-wasm");
  const schema = [{ fileName: "schema.xsd", contents: fs.readFileSync(schemaFile, "utf8") }];
  const xml = files.map((f, i) => ({ fileName: i + ".xml", contents: fs.readFileSync(f, "utf8") }));
  const message = (e) => (e.loc ? e.loc.lineNumber + ": " : "") + e.message.trim();
  // One run for the batch, so that the schema is compiled once; but an
  // error without a location (a file that is not XML at all) cannot be
  // told apart, and then each file is run on its own.
  const batch = await validateXML({ xml, schema });
  if (batch.errors.every((e) => e.loc && /^[0-9]+\.xml$/.test(e.loc.fileName))) {
    const out = files.map(() => []);
    for (const e of batch.errors) {
      out[parseInt(e.loc.fileName, 10)].push(message(e));
    }
    return process.stdout.write(JSON.stringify(out));
  }
  const out = [];
  for (const doc of xml) {
    const result = await validateXML({ xml: [doc], schema });
    out.push(result.errors.map(message));
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  console.error(String((err && err.stack) || err));
  process.exit(2);
});
