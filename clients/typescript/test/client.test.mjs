// Tests of the client against the real service (scripts/check-clients starts it). Environment: DOCAPI_BASE_URL,
// DOCAPI_API_KEY, DOCAPI_WEBHOOK_SECRET (the account's signing secret), DOCAPI_CORPUS (shared/corpus). The service
// runs with DOCAPI_ALLOW_PRIVATE_URLS=true so URL imports and webhooks can reach this test's loopback server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createHmac } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { Docapi, DocapiError, verify, WebhookSignatureError, DELIVERY_ID_HEADER } from "../dist/index.js";

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (scripts/check-clients sets it)`);
  return value;
};
const docapi = new Docapi({ baseUrl: env("DOCAPI_BASE_URL"), apiKey: env("DOCAPI_API_KEY") });
const pdf = join(env("DOCAPI_CORPUS"), "pdf-text", "rotated-pages-20p.pdf");
const deliveries = [];
let server;
let local;

before(async () => {
  // serves the PDF for URL imports and records webhook deliveries
  server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    if (req.method === "POST") {
      deliveries.push({ body: Buffer.concat(chunks), signature: req.headers["service-signature"], id: req.headers[DELIVERY_ID_HEADER], headers: req.headers });
      res.writeHead(204).end();
    } else {
      res.writeHead(200, { "Content-Type": "application/pdf" }).end(await readFile(pdf));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  local = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

const isPdf = async (path) => (await readFile(path)).subarray(0, 5).toString("latin1") === "%PDF-";

test("upload by path, bytes and URL; run polls to the end; download writes the output", async () => {
  const dir = await mkdtemp(join(tmpdir(), "docapi-ts-"));
  const byPath = await docapi.upload(pdf);
  const byBytes = await docapi.upload(await readFile(pdf), { name: "bytes.pdf" });
  const byUrl = await docapi.upload(`${local}/book.pdf`);
  assert.deepEqual([byPath.source, byBytes.source, byUrl.source], ["upload", "upload", "url"]);
  assert.equal(byBytes.name, "bytes.pdf");
  assert.equal(byUrl.pages, 20);

  const rotated = await docapi.run("rotate", { file: byPath.id, angle: 90, pages: [1] });
  assert.equal(rotated.status, "succeeded");
  assert.ok(await isPdf(await docapi.download(rotated.output.files[0], join(dir, "rotated.pdf"))));

  const accepted = await docapi.run("compress", { file: rotated.output.files[0].id }, { wait: false });
  assert.ok(["queued", "running", "succeeded"].includes(accepted.status));
  const compressed = await docapi.waitFor(accepted);
  assert.equal(compressed.status, "succeeded");
  assert.ok(await isPdf(await docapi.download(compressed.output.files[0].id, join(dir, "compressed.pdf"))));
});

test("error answers are DocapiError with the spec's code and status", async () => {
  await assert.rejects(docapi.run("rotate", { file: "file_nope", angle: 90 }), (e) =>
    e instanceof DocapiError && e.code === "file_not_found" && e.status === 404);
  const file = await docapi.upload(pdf);
  await assert.rejects(docapi.run("rotate", { file: file.id, angle: 45 }), (e) =>
    e instanceof DocapiError && e.code === "invalid_request" && e.status === 400 && e.message.includes("angle"));
  await assert.rejects(docapi.upload(new Uint8Array([1, 2, 3]), { name: "x.pdf" }), (e) => e instanceof DocapiError && e.code === "invalid_file");
  await assert.rejects(docapi.upload(new Uint8Array([1])), TypeError);
  await assert.rejects(new Docapi({ baseUrl: env("DOCAPI_BASE_URL"), apiKey: "dk_wrong" }).job("job_x"), (e) => e.code === "invalid_api_key");
});

test("a failed job becomes a DocapiError carrying the job", () => {
  const job = { id: "job_1", status: "failed", error: { code: "interrupted", message: "restarted" } };
  const e = DocapiError.fromJob(job);
  assert.deepEqual([e.code, e.status, e.job], ["interrupted", 503, job]);
});

test("429 and 503 are sent again after Retry-After", async () => {
  const answers = [new Response('{"error":{"code":"too_many_jobs","message":"wait"}}', { status: 429, headers: { "Retry-After": "1" } })];
  const seen = [];
  const client = new Docapi({
    baseUrl: env("DOCAPI_BASE_URL"), apiKey: env("DOCAPI_API_KEY"),
    fetch: async (input, init) => { seen.push(Date.now()); return answers.shift() ?? fetch(input, init); },
  });
  const file = await client.upload(pdf);
  assert.equal(file.pages, 20);
  assert.equal(seen.length, 2);
  assert.ok(seen[1] - seen[0] >= 1000, "waited Retry-After: 1");
  const refused = new Docapi({ baseUrl: env("DOCAPI_BASE_URL"), apiKey: "k", maxRetries: 0,
    fetch: async () => new Response('{"error":{"code":"rate_limited","message":"slow"}}', { status: 429, headers: { "Retry-After": "7" } }) });
  await assert.rejects(refused.job("job_x"), (e) => e.code === "rate_limited" && e.retryAfter === 7);
});

test("verify accepts a real signed delivery and refuses a changed body, a wrong secret and an old timestamp", async () => {
  const file = await docapi.upload(pdf);
  await docapi.run("rotate", { file: file.id, angle: 180, webhook_url: `${local}/hook` });
  for (let i = 0; i < 100 && deliveries.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(deliveries.length, 1, "one delivery arrived");
  const { body, signature, id, headers } = deliveries[0];
  assert.match(id, /^whd_/, "the delivery names itself in webhook-id");
  const secret = env("DOCAPI_WEBHOOK_SECRET");
  const event = verify(body, signature, secret);
  assert.equal(event.type, "job.succeeded");
  assert.equal(event.data.operation, "rotate");
  assert.throws(() => verify(Buffer.concat([body, Buffer.from(" ")]), signature, secret), WebhookSignatureError);
  assert.throws(() => verify(body, signature, "whsec_wrong"), WebhookSignatureError);
  assert.throws(() => verify(body, undefined, secret), WebhookSignatureError);
  const t = Math.floor(Date.now() / 1000);
  assert.throws(() => verify(body, signature, secret, 300, t + 301), /300 s/);
  const old = t - 301;
  const oldHeader = `t=${old},v1=${createHmac("sha256", secret).update(`${old}.`).update(body).digest("hex")}`;
  assert.throws(() => verify(body, oldHeader, secret), /300 s/);
  assert.equal(verify(body, oldHeader, secret, 400).type, "job.succeeded");

  // the same delivery, checked by an independent Standard Webhooks verifier (the standardwebhooks package) with the
  // same secret: webhook-id, webhook-timestamp, webhook-signature v1,<base64>
  const standard = new Webhook(secret).verify(body, headers);
  assert.equal(standard.id, id, "the event's id is its webhook-id");
  assert.equal(standard.data.id, event.data.id);
  assert.throws(() => new Webhook(secret).verify(Buffer.concat([body, Buffer.from(" ")]), headers), WebhookVerificationError);
  const other = `whsec_${Buffer.alloc(30, 7).toString("base64")}`;
  assert.throws(() => new Webhook(other).verify(body, headers), WebhookVerificationError);
});
