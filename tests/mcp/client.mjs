// Drives `marey mcp` through the official MCP TypeScript SDK's stdio client, as an agent's host
// would, and checks every tool's answer against what marey's command line prints.
//   node client.mjs MAREY MAREY_GEN SAMPLE_RANK_DIR
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

// The SDK is pinned in package.json and installed by tools/install-deps.sh (npm ci).
let Client, StdioClientTransport;
try {
  ({ Client } = await import("@modelcontextprotocol/sdk/client/index.js"));
  ({ StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js"));
} catch (error) {
  console.error(`the MCP SDK is not installed in tests/mcp: run sh tools/install-deps.sh (${error.message})`);
  process.exit(1);
}

const [marey, mareyGen, sample] = process.argv.slice(2);
let failures = 0, checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) {
    ++failures;
    console.error(`FAILED: ${what}`);
  }
}
// What the command line prints as JSON; exit 1 of `check` (a regression) is a result too.
function commandJson(args) {
  const run = spawnSync(marey, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0 && run.status !== 1) throw new Error(`marey ${args.join(" ")}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.find((c) => c.type === "text")?.text ?? "";
  return { result, text, isError: result.isError === true };
}
async function callJson(client, name, args) {
  const { text, isError } = await call(client, name, args);
  check(!isError, `${name} ${JSON.stringify(args)} answered without an error: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const work = mkdtempSync(join(tmpdir(), "marey-mcp-"));
try {
  execFileSync(mareyGen, ["--cluster", join(work, "job"), "--ranks", "8", "--slow-rank", "5"], { stdio: "ignore" });
  execFileSync(mareyGen, ["--compare-pair", join(work, "pair")], { stdio: "ignore" });

  const transport = new StdioClientTransport({ command: marey, args: ["mcp"], stderr: "inherit" });
  const client = new Client({ name: "marey-tests", version: "1.0.0" });
  await client.connect(transport);
  check(client.getServerVersion()?.name === "marey", "the server names itself marey");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(isDeepStrictEqual(names, ["check", "cluster_findings", "compare", "critical_path",
    "device_analyses", "open", "screenshot", "sql", "steps", "summary", "top_operators"]), `the tools: ${names}`);
  for (const tool of tools)
    check(tool.inputSchema?.type === "object" && tool.description.length > 40, `${tool.name} has a schema and a description`);

  // A rank folder: every figure as `marey stats --json` gives it.
  const stats = commandJson(["stats", sample, "--json"]);
  const opened = await callJson(client, "open", { path: sample });
  check(opened.id === "d1" && opened.kind === "rank" && opened.slices === stats.slices, "open: the sample as a rank");
  let summaryText = "", offset = 0;
  for (;;) {  // paged: every page until the end
    const { text } = await call(client, "summary", { id: opened.id, offset });
    const match = text.match(/^characters (\d+) to (\d+) of (\d+)(; the rest: call again with offset (\d+))?[^\n]*\n/);
    if (!match) { summaryText += text; break; }
    summaryText += text.slice(match[0].length);
    if (!match[5]) break;
    offset = Number(match[5]);
  }
  check(isDeepStrictEqual(JSON.parse(summaryText), stats), "summary: stats --json, page by page");
  check(isDeepStrictEqual(await callJson(client, "top_operators", { id: "d1", limit: 5 }), stats.top.slice(0, 5)), "top_operators");
  check(isDeepStrictEqual(await callJson(client, "steps", { id: "d1" }), stats.rank.steps), "steps");
  check(isDeepStrictEqual(await callJson(client, "device_analyses", { id: "d1" }), stats.analyses), "device_analyses");

  const counted = await callJson(client, "sql", { id: "d1", query: "select count(*) from slice; select name from slice limit 5", limit: 3 });
  check(counted[0].rows[0][0] === stats.slices + stats.instants, "sql: the slices stats counts");
  check(counted[1].row_count === 5 && counted[1].shown === 3 && /offset 3/.test(counted[1].more), "sql: a limit says what is left");
  const refused = await call(client, "sql", { id: "d1", query: "create temp table t(a)" });
  check(refused.isError && /only statements that read/.test(refused.text), "sql: only reads");
  const attach = await call(client, "sql", { id: "d1", query: "attach '/tmp/x.db' as x" });
  check(attach.isError && /reads only what it opened/.test(attach.text), "sql: no other file");
  const bad = await call(client, "sql", { id: "d1", query: "select nme from slice" });
  check(bad.isError && bad.text === "query:1:8: error: no such column: nme", `sql: SQLite's error and its place (${bad.text})`);

  const { resources } = await client.listResources();
  check(resources.length === 1 && resources[0].uri === "marey://document/d1", "resources: the opened document");
  // A Kineto trace on its own is a trace, not a rank; a relative path stays a path.
  const gpu = join(work, "gpu.json");
  execFileSync(mareyGen, ["--gpu-trace", gpu, "--events", "5000"], { stdio: "ignore" });
  const bare = await callJson(client, "open", { path: gpu });
  check(bare.kind === "trace" && bare.slices === commandJson(["stats", gpu, "--json"]).slices,
    `open: a bare trace is a trace (${bare.kind})`);
  // The critical path of the bare trace's longest step, and of a step named.
  check(isDeepStrictEqual(await callJson(client, "critical_path", { paths: [gpu] }),
    commandJson(["critical-path", gpu, "--json"])), "critical_path: as `marey critical-path --json`");
  check(isDeepStrictEqual(await callJson(client, "critical_path", { paths: [gpu], step: "3" }),
    commandJson(["critical-path", gpu, "--json", "--step", "3"])), "critical_path of a step");
  const noStep = await call(client, "critical_path", { paths: [gpu], step: "999" });
  check(noStep.isError && /no such step/.test(noStep.text), `critical_path: a step that is not there (${noStep.text})`);
  const relative = await call(client, "open", { path: "stats" });
  check(relative.isError && relative.text.includes("stats"), `open "stats": a path, not a subcommand (${relative.text})`);
  const read = await client.readResource({ uri: "marey://document/d1" });
  check(isDeepStrictEqual(JSON.parse(read.contents[0].text), stats), "resources/read: its stats");

  // A cluster with a planted slow rank: its findings.
  const job = join(work, "job");
  const clusterStats = commandJson(["stats", job, "--json"]).cluster;
  const cluster = await callJson(client, "open", { path: job });
  check(cluster.kind === "cluster" && cluster.ranks === 8, "open: a cluster of 8 ranks");
  const findings = await callJson(client, "cluster_findings", { id: cluster.id });
  check(isDeepStrictEqual(findings.findings, clusterStats.findings) && findings.findings.length > 0, "cluster_findings");
  check(isDeepStrictEqual(findings.slow_ranks, clusterStats.slow_ranks), "cluster_findings: slow ranks");
  check(JSON.stringify(findings.slow_ranks).includes("5"), "the planted slow rank 5 is named");
  const slowest = await callJson(client, "sql", { id: cluster.id, query: "select rank_id from rank order by computing_ns desc limit 1" });
  check(slowest[0].rows[0][0] === 5, "sql on a cluster: the rank that computes longest is rank 5");

  // Two runs: the comparison and the regression gate.
  const a = join(work, "pair", "a"), b = join(work, "pair", "b");
  check(isDeepStrictEqual(await callJson(client, "compare", { a, b }), commandJson(["stats", "--compare", a, b, "--json"])), "compare");
  const gate = await callJson(client, "check", { baseline: a, candidate: b });
  check(isDeepStrictEqual(gate, commandJson(["check", a, b, "--json"])), "check: as `marey check --json`");
  const strict = await callJson(client, "check", { baseline: a, candidate: b, rules: ["step=1%"] });
  check(isDeepStrictEqual(strict, commandJson(["check", a, b, "--json", "--max", "step=1%"])), "check with a rule");

  // A picture of the sample's overview.
  const shot = await call(client, "screenshot", { path: sample, view: "overview", width: 800, height: 500 });
  const image = shot.result.content.find((c) => c.type === "image");
  check(!shot.isError && image?.mimeType === "image/png" &&
    Buffer.from(image.data, "base64").subarray(1, 4).toString() === "PNG", `screenshot: a PNG (${shot.text})`);

  // Errors are tool errors with marey's words.
  const missing = await call(client, "open", { path: "/nonexistent/trace.json" });
  check(missing.isError && missing.text.includes("/nonexistent/trace.json"), `open: a missing path (${missing.text})`);
  const unknown = await call(client, "summary", { id: "d9" });
  check(unknown.isError && /no document "d9"/.test(unknown.text), "an unknown id");
  const noTool = await call(client, "frobnicate", {});
  check(noTool.isError && /no tool named/.test(noTool.text), "an unknown tool");

  await client.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${checks - failures} of ${checks} checks passed`);
process.exit(failures === 0 ? 0 : 1);
