export { Docapi } from "./client.js";
export type { DocapiOptions, FileObject, Job, Operation, OperationRequest, RunOptions } from "./client.js";
export { DocapiError } from "./errors.js";
export type { ErrorCode } from "./errors.js";
export { verify, WebhookSignatureError, SIGNATURE_HEADER, DELIVERY_ID_HEADER } from "./webhooks.js";
export type { WebhookEvent } from "./webhooks.js";
export type { components, paths } from "./generated/openapi.js";
