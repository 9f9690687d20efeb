// The graphql-js peer of tools/bench/graphql-http: graphql-js 16 (Debian's node-graphql,
// NODE_PATH=/usr/share/nodejs) on Node's http module, serving the same schema.graphql with a
// parsed-and-validated document cache, as docs/benchmarks.md describes.
// Debian's graphql-js is 16.6, older than @oneOf (16.9): the directive is removed from the
// schema on this side (no @oneOf input is touched by the benchmark's `{ __typename }`).
// Usage: node graphql-js-server.js SCHEMA.graphql PORT
"use strict";
const fs = require("fs");
const http = require("http");
const { buildSchema, parse, validate, execute } = require("graphql");

const schema = buildSchema(fs.readFileSync(process.argv[2], "utf8").replace(/@oneOf\b/g, ""));
const port = Number(process.argv[3]);
const documents = new Map();

function prepared(query) {
  let entry = documents.get(query);
  if (!entry) {
    const document = parse(query);
    entry = { document, errors: validate(schema, document) };
    documents.set(query, entry);
  }
  return entry;
}

http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    let status = 200;
    let result;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const { document, errors } = prepared(body.query);
      if (errors.length > 0) {
        status = 400;
        result = { errors };
      } else {
        result = execute({ schema, document, variableValues: body.variables, operationName: body.operationName });
      }
    } catch (error) {
      status = 400;
      result = { errors: [{ message: String(error.message) }] };
    }
    const text = JSON.stringify(result);
    response.writeHead(status, {
      "Content-Type": "application/graphql-response+json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
    });
    response.end(text);
  });
}).listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}`));
