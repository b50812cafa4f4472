// validate.js checks a batch of XML files in one node process, so that a
// stylesheet or a schema is loaded once for the whole batch:
//
//   node validate.js schematron STYLESHEET.sef.json OUTDIR FILE...
//     applies a compiled Schematron stylesheet (SaxonJS SEF) and writes
//     the SVRL report of the i-th FILE to OUTDIR/i.svrl (i from 0);
//   node validate.js xsd SCHEMADIR MAIN.xsd FILE...
//     validates each FILE against SCHEMADIR/MAIN.xsd (the other schemas
//     under SCHEMADIR are what it imports) and prints the errors as JSON:
//     [{"file": i, "line": n, "message": "..."}].
"use strict";
const fs = require("fs");
const path = require("path");

async function schematron(sef, outDir, files) {
  const SaxonJS = require("saxon-js");
  const stylesheet = JSON.parse(fs.readFileSync(sef, "utf8"));
  for (const [i, file] of files.entries()) {
    const result = await SaxonJS.transform({
      stylesheetInternal: stylesheet,
      sourceFileName: file,
      destination: "serialized",
    }, "async");
    fs.writeFileSync(path.join(outDir, i + ".svrl"), result.principalResult);
  }
}

async function xsd(schemaDir, main, files) {
  const { validateXML } = require("xmllint-wasm");
  const read = (name) => ({ fileName: name, contents: fs.readFileSync(path.join(schemaDir, name), "utf8") });
  const preload = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(schemaDir, dir), { withFileTypes: true })) {
      const name = dir ? dir + "/" + e.name : e.name;
      if (e.isDirectory()) {
        walk(name);
      } else if (name.endsWith(".xsd") && name !== main) {
        preload.push(read(name));
      }
    }
  };
  walk("");
  const result = await validateXML({
    xml: files.map((f, i) => ({ fileName: i + ".xml", contents: fs.readFileSync(f, "utf8") })),
    schema: [read(main)],
    preload,
  });
  const errors = result.errors.map((e) => ({
    file: e.loc ? parseInt(e.loc.fileName, 10) : -1,
    line: e.loc ? e.loc.lineNumber : 0,
    message: e.message,
  }));
  process.stdout.write(JSON.stringify(errors));
}

async function main() {
  const [mode, a, b, ...files] = process.argv.slice(2);
  switch (mode) {
    case "schematron":
      return schematron(a, b, files);
    case "xsd":
      return xsd(a, b, files);
    default:
      throw new Error("usage: node validate.js schematron|xsd ...");
  }
}

main().catch((err) => {
  console.error(String((err && err.stack) || err));
  process.exit(2);
});
