// The engine benchmark's graphql-js side (graphql-js 16 from Debian's node-graphql, run with
// NODE_PATH=/usr/share/nodejs): the same work as GraphQLBench and graphql_core_bench.py —
// parse, validate with the specified rules, execute and JSON.stringify the standard
// introspection query and the 1,000 x 10 list query — printed in the same
// `name key=value ...` format.
// Debian's graphql-js is 16.6, older than @oneOf (16.9): the directive is removed from the
// schema and `isOneOf` from the introspection query on this side only, so it does marginally
// less work than the others.
// Usage: node graphql_js_bench.js SCHEMA.graphql INTROSPECTION.graphql SECONDS
"use strict";
const fs = require("fs");
const { buildSchema, parse, validate, execute } = require("graphql");

const [schemaPath, introspectionPath, secondsText] = process.argv.slice(2);
const schema = buildSchema(fs.readFileSync(schemaPath, "utf8").replace(/@oneOf\b/g, ""));
const introspection = fs.readFileSync(introspectionPath, "utf8").replace(/\bisOneOf\b/g, "");
const seconds = Number(secondsText);

const items = Array.from({ length: 1000 }, (_, index) => ({
  id: String(index), name: `Item ${index}`, description: `The item numbered ${index}.`,
  price: index * 1.25, quantity: index % 17, active: index % 2 === 0,
  category: `category-${index % 10}`, sku: `SKU-${100000 + index}`, rating: (index % 50) / 10,
  stock: index * 3,
}));
const root = { items: ({ count = 1000 }) => items.slice(0, count) };
const listQuery = "{ items(count: 1000) { id name description price quantity active category sku rating stock } }";

let size = 0;
function run(query) {
  const document = parse(query);
  const errors = validate(schema, document);
  if (errors.length > 0) throw errors[0];
  const result = execute({ schema, document, rootValue: root });
  if (result.errors) throw result.errors[0];
  size = Buffer.byteLength(JSON.stringify(result));
}

function measure(body) {
  const warmUpEnd = performance.now() + 300;
  while (performance.now() < warmUpEnd) body();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let iterations = 0;
  for (;;) {
    body();
    iterations += 1;
    if (performance.now() - start >= seconds * 1000 && iterations >= 5) break;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { iterations, elapsed: (performance.now() - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

for (const [name, query, fields] of [["introspection", introspection, 0], ["list", listQuery, 10000]]) {
  const { iterations, elapsed, cpuSeconds } = measure(() => run(query));
  const perOperation = elapsed / iterations;
  let line = `${name} iterations=${iterations} seconds=${elapsed} ms_per_op=${perOperation * 1000} ` +
    `cpu_ms_per_op=${(cpuSeconds / iterations) * 1000} bytes=${size}`;
  if (fields) line += ` fields_per_second=${fields / perOperation}`;
  console.log(line);
}
