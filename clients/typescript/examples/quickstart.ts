// The README's TypeScript example, compiled under `tsc --strict` by `npm run examples` (scripts/check-clients): a call
// that the README shows must type-check as written. Only the receiver's inputs are declared here.
import { Docapi, DocapiError, verify, DELIVERY_ID_HEADER } from "@docapi/client";

declare const request: { headers: Record<string, string | undefined> };
declare const rawBody: Buffer;
declare const secret: string;

const docapi = new Docapi({ baseUrl: "http://localhost:8080/v1", apiKey: process.env.DOCAPI_API_KEY! });
const file = await docapi.upload("report.pdf");                   // a path, bytes ({ name }), or an http(s) URL
const job = await docapi.run("rotate", { file: file.id, angle: 90 }); // polls to the end; { wait: false } returns at once
await docapi.download(job.output!.files[0], "rotated.pdf");
await docapi.run("compress", { file: file.id });                   // options with a default may be left out
try { await docapi.run("compress", { file: "file_gone" }); } catch (e) { if (e instanceof DocapiError) console.log(e.code); }
// webhook receiver: the raw body, the signature header, the account's signing secret
const event = verify(rawBody, request.headers["service-signature"], secret); // throws WebhookSignatureError
const deliveryId = request.headers[DELIVERY_ID_HEADER];           // the same on every retry of one delivery
console.log(event.type, deliveryId);
