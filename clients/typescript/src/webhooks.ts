import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./generated/openapi.js";

/** A webhook delivery body (spec §6): `{type: "job.succeeded" | "job.failed", created_at, data: Job}`. */
export type WebhookEvent = components["schemas"]["WebhookEvent"];

/** The name of the header that carries the signature. */
export const SIGNATURE_HEADER = "Service-Signature";

/**
 * The header that names the delivery (Standard Webhooks' `webhook-id`): the same on every retry of one delivery, so a
 * receiver that already handled it can answer 2xx and do nothing.
 */
export const DELIVERY_ID_HEADER = "webhook-id";

/** Why a delivery was refused by {@link verify}; `message` says which check failed. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/**
 * Verifies a webhook delivery and returns its event. The `Service-Signature` header is `t=<unix seconds>,v1=<hex>`
 * (spec §6): `v1` is the lowercase hex HMAC-SHA256, keyed with the account's webhook signing secret, of
 * `"<t>.<raw body>"`. Every `v1` in the header is tried (compared in constant time), and `t` must be within
 * `toleranceSeconds` of now.
 *
 * @param rawBody the request body exactly as received (not re-serialised JSON)
 * @param header the Service-Signature header value
 * @param secret the account's webhook signing secret
 * @param toleranceSeconds largest accepted distance between `t` and now, default 300
 * @throws WebhookSignatureError when the header is missing or malformed, no signature matches, or `t` is too old or new
 */
export function verify(rawBody: string | Uint8Array, header: string | null | undefined, secret: string,
                       toleranceSeconds = 300, nowSeconds = Date.now() / 1000): WebhookEvent {
  if (!header) throw new WebhookSignatureError(`no ${SIGNATURE_HEADER} header`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && /^\d+$/.test(value ?? "")) timestamp = Number(value);
    if (key === "v1" && value) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookSignatureError(`${SIGNATURE_HEADER} is not t=<unix time>,v1=<hex>`);
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some((s) => {
    const given = Buffer.from(s, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError("no signature matches the body and the secret");
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError(`the signature's timestamp is more than ${toleranceSeconds} s from now`);
  }
  return JSON.parse(body.toString("utf8")) as WebhookEvent;
}
