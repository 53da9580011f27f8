package dev.docapi.openapi;

import static dev.docapi.core.J.a;
import static dev.docapi.core.J.o;
import static dev.docapi.core.J.ref;

import dev.docapi.core.J;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.PublicBaseUrl;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3.1 description of the whole interface (spec §4.2, §9), built in code. Operation request bodies come
 * from each {@link Operation}'s declaration through {@link OperationRequestSchema}, iterating the registry, so an
 * operation added later appears without touching this class. Fixed endpoints, statuses and error codes follow spec
 * §4 and §7; every response names the codes it can carry.
 */
@Component
public class OpenApiDocument {
    private static final List<ErrorCode> RATE = List.of(ErrorCode.RATE_LIMITED);
    private final OperationRegistry registry;
    private final PublicBaseUrl baseUrl;
    private final JsonMapper json;

    public OpenApiDocument(OperationRegistry registry, PublicBaseUrl baseUrl, JsonMapper json) {
        this.registry = registry;
        this.baseUrl = baseUrl;
        this.json = json;
    }

    /** The document, with {@code servers} set to the current public base URL. */
    public ObjectNode build() {
        return new Builder().build();
    }

    /** One build: collects the per-code-set error schemas while the paths are written. */
    private final class Builder {
        private final Map<String, Object> schemas = ComponentSchemas.all(registry.all());
        private final Map<String, Object> errorSchemas = new TreeMap<>();

        ObjectNode build() {
            Map<String, Object> paths = new LinkedHashMap<>();
            paths.put("/", o("get", publicOp("getService", "Service", "What this service is and where its description lives (no key).",
                    o("200", ok("the service", "Service")))));
            paths.put("/openapi.json", o("get", publicOp("getOpenApi", "Service", "This OpenAPI 3.1 description (no key).",
                    o("200", o("description", "the description", "content", o("application/json", o("schema", o("type", "object"))))))));
            files(paths);
            jobs(paths);
            account(paths);
            workflows(paths);
            operations(paths);
            paths.put("/mcp", o("post", o(
                    "operationId", "mcp", "tags", a("MCP"), "summary", "MCP server (Streamable HTTP, stateless)",
                    "description", "Model Context Protocol over Streamable HTTP (JSON-RPC 2.0 in the body). Send "
                            + "'Accept: application/json, text/event-stream'. Tools mirror the operations; a tool call is an API call.",
                    "requestBody", o("required", true, "content", o("application/json", o("schema", o("type", "object",
                            "description", "a JSON-RPC 2.0 message")))),
                    "responses", responses(o(
                            "200", o("description", "JSON-RPC response", "content", o(
                                    "application/json", o("schema", o("type", "object")),
                                    "text/event-stream", o("schema", o("type", "string")))),
                            "202", o("description", "notification accepted"),
                            "400", error("not a valid MCP request (body, Content-Type or Accept)", ErrorCode.INVALID_REQUEST),
                            "403", error("a browser Origin that is not allowed", ErrorCode.INVALID_REQUEST)), true, RATE))));
            Map<String, Object> webhookItems = webhookPathItems();
            Map<String, Object> webhooks = new LinkedHashMap<>();
            webhookItems.keySet().forEach(type -> webhooks.put(type, o("$ref", "#/components/pathItems/" + type)));
            Map<String, Object> components = o(
                    "schemas", schemas,
                    "pathItems", webhookItems,
                    "headers", o(
                            "Location", o("description", "where the created resource or the running job is", "required", true,
                                    "schema", o("type", "string")),
                            "Retry-After", o("description", "seconds to wait before retrying", "required", true,
                                    "schema", o("type", "string", "pattern", "^[0-9]+$")),
                            "WWW-Authenticate", o("description", "the auth scheme to use", "schema", o("type", "string"))),
                    "securitySchemes", o(
                            "bearerAuth", o("type", "http", "scheme", "bearer", "description", "Authorization: Bearer <API_KEY>"),
                            "apiKeyHeader", o("type", "apiKey", "in", "header", "name", "X-API-Key", "description", "X-API-Key: <API_KEY>"),
                            "signedLinkExpiry", o("type", "apiKey", "in", "query", "name", "e",
                                    "description", "query e of a download_url (GET /files/{id}/content only, with signedLinkToken)"),
                            "signedLinkToken", o("type", "apiKey", "in", "query", "name", "t",
                                    "description", "query t of a download_url (GET /files/{id}/content only, with signedLinkExpiry)")));
            schemas.putAll(errorSchemas);
            Map<String, Object> doc = o(
                    "openapi", "3.1.0",
                    "info", o("title", "docapi", "version", "1.0.0",
                            "summary", "Document-processing API: files, jobs, workflows, AI extraction and webhooks",
                            "description", "Edit, convert, compress, OCR and organise PDFs. Upload a file, run operations on file ids "
                                    + "(each runs as a job), download the outputs. Files are deleted 24 hours after creation; job records are "
                                    + "kept 7 days. Errors are {error: {code, message}}; 429 answers carry Retry-After in seconds. "
                                    + "Responses to requests with a key carry X-RateLimit-Limit and X-RateLimit-Remaining (per minute).",
                            "license", o("name", "Proprietary", "identifier", "LicenseRef-docapi")),
                    "servers", a(o("url", baseUrl.get(), "description", "this service (base address ends in /v1)")),
                    "security", a(o("bearerAuth", List.of()), o("apiKeyHeader", List.of())),
                    "tags", a(
                            o("name", "Service", "description", "what the service is"),
                            o("name", "Files", "description", "upload, list, download, delete"),
                            o("name", "Jobs", "description", "poll and list jobs"),
                            o("name", "Account", "description", "usage and models"),
                            o("name", "Workflows", "description", "saved chains of operation steps"),
                            o("name", "Operations", "description", "document operations; each runs as a job"),
                            o("name", "MCP", "description", "the same operations as MCP tools"),
                            o("name", "Webhooks", "description", "signed job-finished deliveries to your webhook_url")),
                    "paths", paths,
                    "webhooks", webhooks,
                    "components", components);
            return json.valueToTree(doc);
        }

        private void files(Map<String, Object> paths) {
            Map<String, Object> upload = op("uploadFile", "Files", "Upload a file",
                    "Multipart (field file, optional name), raw bytes (application/octet-stream with ?name=), or, with "
                            + "Content-Type: application/json, an object {\"url\": required, a public http(s) URL the service fetches "
                            + "(spec §4.1), \"name\": optional file name to use} and no other member. Max 100 MB; the content decides "
                            + "the type. The JSON form is not listed as a request media type: generated clients that prefer JSON "
                            + "(openapi-generator's okhttp-gson) would send every upload as JSON.",
                    o("201", o("description", "the stored file", "headers", o("Location", hdr("Location")), "content", jsonOf(ref("FileObject"))),
                            "400", error("invalid request or file", ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_FILE, ErrorCode.EMPTY_FILE, ErrorCode.FETCH_FAILED),
                            "413", error("larger than 100 MB", ErrorCode.FILE_TOO_LARGE),
                            "415", error("a file type the service does not take", ErrorCode.UNSUPPORTED_FILE_TYPE)));
            upload.put("parameters", a(o("name", "name", "in", "query", "required", false,
                    "description", "file name for raw uploads (required with application/octet-stream)", "schema", o("type", "string"))));
            upload.put("requestBody", o("required", true, "content", o(
                    "multipart/form-data", o("schema", J.object("Multipart upload.", o(
                            "file", o("type", "string", "contentMediaType", "application/octet-stream", "description", "the file"),
                            "name", o("type", "string", "description", "file name to use")), "file")),
                    "application/octet-stream", o("schema", o("type", "string", "contentMediaType", "application/octet-stream")))));
            Map<String, Object> list = op("listFiles", "Files", "List files", "The account's files of the last 24 hours, newest first.",
                    o("200", ok("the files", "FileList"), "400", error("bad limit", ErrorCode.INVALID_REQUEST)));
            list.put("parameters", a(limit(200, 50)));
            paths.put("/files", o("post", upload, "get", list));

            Map<String, Object> get = op("getFile", "Files", "Get a file", "The file with a fresh one-hour download_url.",
                    o("200", ok("the file", "FileObject"), "404", error("unknown file", ErrorCode.FILE_NOT_FOUND), "410", error("expired", ErrorCode.FILE_EXPIRED)));
            Map<String, Object> del = op("deleteFile", "Files", "Delete a file", "Deletes the file's bytes at once.",
                    o("200", ok("deleted", "DeletedFile"), "404", error("unknown file", ErrorCode.FILE_NOT_FOUND)));
            paths.put("/files/{id}", o("parameters", a(pathId("file id")), "get", get, "delete", del));

            Map<String, Object> content = op("getFileContent", "Files", "Download a file's bytes",
                    "With an API key, or without one using the signed query (e, t) of download_url, valid one hour: GET the "
                            + "download_url as it is. The query is described as the security requirement signedLinkExpiry + "
                            + "signedLinkToken rather than as parameters, so generated clients take it as credentials.",
                    o("200", o("description", "the bytes", "headers", o("Content-Disposition", o("schema", o("type", "string"))),
                                    "content", o("application/octet-stream", o("schema", o("type", "string", "contentMediaType", "application/octet-stream")))),
                            "403", error("the signed link is older than one hour", ErrorCode.LINK_EXPIRED),
                            "404", error("unknown file", ErrorCode.FILE_NOT_FOUND), "410", error("expired", ErrorCode.FILE_EXPIRED)));
            content.put("security", a(o("signedLinkExpiry", List.of(), "signedLinkToken", List.of()),
                    o("bearerAuth", List.of()), o("apiKeyHeader", List.of())));
            content.put("parameters", a(pathId("file id")));
            paths.put("/files/{id}/content", o("get", content));
        }

        private void jobs(Map<String, Object> paths) {
            Map<String, Object> list = op("listJobs", "Jobs", "List jobs", "Jobs newest first (kept 7 days).",
                    o("200", ok("the jobs", "JobList"), "400", error("bad limit", ErrorCode.INVALID_REQUEST)));
            list.put("parameters", a(limit(100, 20)));
            paths.put("/jobs", o("get", list));
            paths.put("/jobs/{id}", o("parameters", a(pathId("job id")), "get", op("getJob", "Jobs", "Get a job",
                    "Poll until status is succeeded or failed.", o("200", ok("the job", "Job"), "404", error("unknown job", ErrorCode.JOB_NOT_FOUND)))));
        }

        private void account(Map<String, Object> paths) {
            paths.put("/usage", o("get", op("getUsage", "Account", "This month's usage", "Operations and AI operations used this UTC month.",
                    o("200", ok("usage", "Usage")))));
            paths.put("/models", o("get", op("listModels", "Account", "Models the account can use",
                    "The service's model, one entry per provider key the account added, and the model each pipeline uses.",
                    o("200", ok("models", "ModelList")))));
        }

        private void workflows(Map<String, Object> paths) {
            Map<String, Object> create = op("createWorkflow", "Workflows", "Save a workflow", "Steps are validated when saved; at most 50 per account.",
                    o("201", ok("the workflow", "Workflow"),
                            "400", error("invalid steps, or 50 workflows saved already", ErrorCode.INVALID_REQUEST)));
            create.put("requestBody", body(J.object("A workflow to save.", o(
                    "name", o("type", "string", "minLength", 1),
                    "steps", o("type", "array", "minItems", 1, "maxItems", 10, "items", ref("Step"))), "name", "steps")));
            paths.put("/workflows", o("post", create, "get", op("listWorkflows", "Workflows", "List workflows", "The account's saved workflows.",
                    o("200", ok("the workflows", "WorkflowList")))));
            paths.put("/workflows/{id}", o("parameters", a(pathId("workflow id")),
                    "get", op("getWorkflow", "Workflows", "Get a workflow", "A saved workflow.",
                            o("200", ok("the workflow", "Workflow"), "404", error("unknown workflow", ErrorCode.NOT_FOUND))),
                    "delete", op("deleteWorkflow", "Workflows", "Delete a workflow", "Deletes a saved workflow.",
                            o("200", ok("deleted", "DeletedWorkflow"), "404", error("unknown workflow", ErrorCode.NOT_FOUND)))));
            Map<String, Object> runMembers = o(
                    "file", o("type", "string", "description", "input file id (or files)"),
                    "files", o("type", "array", "items", o("type", "string"),
                            "description", "input file ids (or file). An empty array is the same as leaving it out."));
            runMembers.putAll(OperationRequestSchema.commonMembers(OperationRequestSchema.HTTP_WAIT));
            Map<String, Object> run = jobOp("runWorkflow", "Workflows", "Run a saved workflow",
                    "Runs the steps as ONE job on the given file(s); each succeeded step counts as one operation.",
                    List.of(ErrorCode.FILE_NOT_FOUND, ErrorCode.NOT_FOUND));
            run.put("requestBody", body(o("type", "object", "properties", runMembers, "additionalProperties", false)));
            paths.put("/workflows/{id}/run", o("parameters", a(pathId("workflow id")), "post", run));
            Map<String, Object> adHocMembers = new LinkedHashMap<>();
            adHocMembers.put("steps", o("type", "array", "minItems", 1, "maxItems", 10, "items", ref("Step")));
            adHocMembers.putAll(runMembers);
            Map<String, Object> adHoc = jobOp("runSteps", "Workflows", "Run steps without saving", "As POST /workflows/{id}/run, with the steps in the body.",
                    List.of(ErrorCode.FILE_NOT_FOUND));
            adHoc.put("requestBody", body(o("type", "object", "properties", adHocMembers, "required", List.of("steps"), "additionalProperties", false)));
            paths.put("/workflows/run", o("post", adHoc));
        }

        private void operations(Map<String, Object> paths) {
            for (Operation<?> op : registry.all()) {
                String schemaName = pascal(op.name()) + "Request";
                schemas.put(schemaName, OperationRequestSchema.of(op));
                Map<String, Object> post = jobOp(op.toolName(), "Operations", summary(op),
                        op.description() + " Input: " + OperationRequestSchema.kinds(op.inputs()) + ". MCP tool: " + op.toolName() + ".",
                        List.of(ErrorCode.FILE_NOT_FOUND, ErrorCode.UNKNOWN_OPERATION));
                post.put("requestBody", body(ref(schemaName)));
                paths.put("/" + op.name(), o("post", post));
            }
        }

        /** A request that runs a job (spec §4.4 common responses). */
        private Map<String, Object> jobOp(String id, String tag, String summary, String description, List<ErrorCode> notFound) {
            return op(id, tag, summary, description, o(
                    "200", ok("finished; the job with its output", "Job"),
                    "202", o("description", "still running after wait seconds; poll Location", "headers", o("Location", hdr("Location")),
                            "content", jsonOf(ref("Job"))),
                    "400", error("invalid request, checked before anything runs; costs nothing", ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_FILE),
                    "402", error("the free plan's monthly operations are used", ErrorCode.QUOTA_EXCEEDED),
                    "404", error("unknown file or operation", notFound.toArray(ErrorCode[]::new)),
                    "410", error("an input file expired", ErrorCode.FILE_EXPIRED),
                    "429", error("request rate or job queue full", ErrorCode.RATE_LIMITED, ErrorCode.TOO_MANY_JOBS),
                    "502", o("description", "the job ran and failed; the body carries the error and the job", "content", jsonOf(ref("FailedJob"))),
                    "503", error("the service is unavailable or was interrupted; safe to retry", ErrorCode.SERVICE_UNAVAILABLE, ErrorCode.INTERRUPTED)));
        }

        /**
         * The webhook deliveries, by event type. The {@code webhooks} section refers to them in {@code components.pathItems}:
         * generated clients then leave them out (a client does not send webhooks; typescript-fetch's WebhooksApi does not
         * compile), while documentation and validation tools follow the {@code $ref}.
         */
        private Map<String, Object> webhookPathItems() {
            Map<String, Object> hooks = new LinkedHashMap<>();
            for (String type : List.of("job.succeeded", "job.failed")) {
                hooks.put(type, o("post", o(
                        "operationId", type.equals("job.succeeded") ? "jobSucceeded" : "jobFailed",
                        "tags", a("Webhooks"),
                        "summary", "Job finished with status " + type.substring(4),
                        "description", "POSTed to webhook_url when the job finishes. Answer with any 2xx; a failed delivery is retried "
                                + "after 30 seconds and after 5 minutes; redirects are not followed.",
                        "parameters", a(o("name", "Service-Signature", "in", "header", "required", true,
                                "description", "t=<unix_time>,v1=<hex>: v1 is the lowercase hex HMAC-SHA256, keyed with the account's webhook "
                                        + "signing secret, of '<t>.<raw_body>'. Compare in constant time; reject t more than 300 s from now.",
                                "schema", o("type", "string", "pattern", "^t=[0-9]+,v1=[0-9a-f]{64}$")),
                                o("name", "webhook-id", "in", "header", "required", true,
                                        "description", "The delivery's id, the same on every attempt of one delivery and the event's id "
                                                + "(Standard Webhooks): a receiver that already handled it can answer 2xx and do nothing.",
                                        "schema", o("type", "string", "pattern", "^whd_")),
                                o("name", "webhook-timestamp", "in", "header", "required", true,
                                        "description", "Standard Webhooks (an addition): when this attempt was sent, unix seconds.",
                                        "schema", o("type", "string", "pattern", "^[0-9]+$")),
                                o("name", "webhook-signature", "in", "header", "required", true,
                                        "description", "Standard Webhooks (an addition): v1,<base64 HMAC-SHA256 of "
                                                + "'<webhook-id>.<webhook-timestamp>.<raw_body>'>, keyed with the base64-decoded part of the "
                                                + "signing secret after whsec_; any Standard Webhooks or Svix verifier checks it.",
                                        "schema", o("type", "string", "pattern", "^v1,[A-Za-z0-9+/]{43}=$"))),
                        "requestBody", body(ref("WebhookEvent")),
                        "responses", o("2XX", o("description", "received")))));
            }
            return hooks;
        }

        private Map<String, Object> op(String id, String tag, String summary, String description, Map<String, Object> specific) {
            return o("operationId", id, "tags", a(tag), "summary", summary, "description", description,
                    "responses", responses(specific, true, RATE));
        }

        private Map<String, Object> publicOp(String id, String tag, String summary, Map<String, Object> specific) {
            return o("operationId", id, "tags", a(tag), "summary", summary, "security", a(o()), "responses", responses(specific, false, List.of()));
        }

        /** The endpoint's own responses plus 401 (when a key is needed) and 429 (every request is rate limited). */
        private Map<String, Object> responses(Map<String, Object> specific, boolean keyed, List<ErrorCode> rate) {
            Map<String, Object> r = new TreeMap<>(specific);
            if (keyed) {
                Map<String, Object> unauthorized = error("missing or invalid API key", ErrorCode.MISSING_API_KEY, ErrorCode.INVALID_API_KEY);
                unauthorized.put("headers", o("WWW-Authenticate", o("$ref", "#/components/headers/WWW-Authenticate")));
                r.putIfAbsent("401", unauthorized);
            }
            if (!rate.isEmpty() && !r.containsKey("429")) {
                r.put("429", error("request rate exceeded (120 per minute per key)", rate.toArray(ErrorCode[]::new)));
            }
            return r;
        }

        /** An error response whose body may carry only {@code codes}; 429s also carry Retry-After. */
        private Map<String, Object> error(String description, ErrorCode... codes) {
            String name = "Error" + String.join("", Arrays.stream(codes).map(c -> pascal(c.code())).toList());
            errorSchemas.computeIfAbsent(name, n -> J.object("Error with code " + String.join(" or ", Arrays.stream(codes).map(ErrorCode::code).toList()) + ".",
                    o("error", J.object("The error.", o("code", o("type", "string", "enum", Arrays.stream(codes).map(ErrorCode::code).toList()),
                            "message", J.str("for a person")), "code", "message")), "error"));
            Map<String, Object> response = o("description", description, "content", jsonOf(ref(name)));
            if (codes[0].status() == 429) response.put("headers", o("Retry-After", hdr("Retry-After")));
            return response;
        }

        private Map<String, Object> ok(String description, String schema) {
            return o("description", description, "content", jsonOf(ref(schema)));
        }
    }

    private static Map<String, Object> jsonOf(Map<String, Object> schema) {
        return o("application/json", o("schema", schema));
    }

    private static Map<String, Object> body(Map<String, Object> schema) {
        return o("required", true, "content", jsonOf(schema));
    }

    private static Map<String, Object> hdr(String name) {
        return o("$ref", "#/components/headers/" + name);
    }

    private static Map<String, Object> pathId(String description) {
        return o("name", "id", "in", "path", "required", true, "description", description, "schema", o("type", "string"));
    }

    private static Map<String, Object> limit(int max, int dflt) {
        return o("name", "limit", "in", "query", "required", false, "description", "how many, newest first",
                "schema", o("type", "integer", "minimum", 1, "maximum", max, "default", dflt));
    }

    private static String summary(Operation<?> op) {
        String d = op.description();
        int dot = d.indexOf(". ");
        return dot > 0 ? d.substring(0, dot) : d.endsWith(".") ? d.substring(0, d.length() - 1) : d;
    }

    /** {@code remove-pages} → {@code RemovePages}; {@code file_not_found} → {@code FileNotFound}. */
    static String pascal(String name) {
        List<String> parts = new ArrayList<>();
        for (String p : name.split("[-_]")) {
            if (!p.isEmpty()) parts.add(p.substring(0, 1).toUpperCase(Locale.ROOT) + p.substring(1));
        }
        return String.join("", parts);
    }
}
