package dev.docapi.openapi;

import static dev.docapi.core.J.a;
import static dev.docapi.core.J.constant;
import static dev.docapi.core.J.list;
import static dev.docapi.core.J.o;
import static dev.docapi.core.J.object;
import static dev.docapi.core.J.ref;
import static dev.docapi.core.J.str;
import static dev.docapi.core.J.timestamp;

import dev.docapi.accounts.Plan;
import dev.docapi.core.ErrorCode;
import dev.docapi.document.DocumentModel;
import dev.docapi.jobs.JobStatus;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OutputMember;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resource schemas of the description (spec §2, DESIGN §4): FileObject (spec §2.2's File, named so it does not
 * collide with the platform's own {@code File} type in generated clients), Job (with the output members the operations
 * declare, {@code progress} and {@code webhook}), Workflow and Step, list envelopes, usage, models, the service object, the
 * webhook event, Error, and the document model (derived from its records, {@link RecordSchema}). Every object is closed
 * ({@code additionalProperties: false}) so an undocumented member fails response validation.
 */
final class ComponentSchemas {
    private ComponentSchemas() {
    }

    /** @param operations every registered operation, for the output members they declare */
    static Map<String, Object> all(Collection<Operation<?>> operations) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("FileObject", object("A stored file (spec §2.2). Files are deleted 24 hours after creation.", o(
                "object", constant("file"),
                "id", o("type", "string", "pattern", "^file_", "description", "file id, prefix file_"),
                "name", str("file name"),
                "size", o("type", "integer", "minimum", 0, "description", "bytes"),
                "content_type", str("media type, e.g. application/pdf"),
                "pages", o("type", a("integer", "null"), "minimum", 0, "description", "page count (PDF pages, image frames); null for other types"),
                "created_at", timestamp("ISO 8601 UTC", false),
                "expires_at", timestamp("ISO 8601 UTC, 24 hours after creation", false),
                "source", o("type", "string", "enum", a("upload", "url", "job"), "description", "job = produced by an operation"),
                "download_url", o("type", "string", "format", "uri",
                        "description", "signed link to GET /files/{id}/content, usable without an API key for one hour (query e and t, see the "
                                + "signedLink security scheme); GET /files/{id} returns a fresh one")),
                "object", "id", "name", "size", "content_type", "pages", "created_at", "expires_at", "source", "download_url"));
        s.put("FileList", list("FileObject", "The account's files of the last 24 hours, newest first."));
        s.put("DeletedFile", object("A deleted file.", o("object", constant("file"), "id", str("file id"), "deleted", deleted()),
                "object", "id", "deleted"));
        s.put("ErrorCode", o("type", "string", "description", "stable error code (spec §7)",
                "enum", Arrays.stream(ErrorCode.values()).map(ErrorCode::code).toList()));
        s.put("ErrorDetail", object("What went wrong: a stable code and a message for a person.",
                o("code", ref("ErrorCode"), "message", str("for a person; may change")), "code", "message"));
        s.put("FailedJob", object("A job that ran and failed (spec §2.7): the error and the job.",
                o("error", ref("ErrorDetail"), "job", ref("Job")), "error", "job"));
        s.put("Job", job(operations));
        s.put("JobList", list("Job", "Jobs of the last 7 days, newest first."));
        s.put("Step", object("One workflow step (spec §2.4).", o(
                "operation", str("name of an operation, e.g. compress"),
                "options", o("type", "object", "description", "the operation's options, e.g. {target_mb: 2}; see the operation's request schema")),
                "operation"));
        s.put("Workflow", object("A saved chain of 1-10 operation steps (spec §2.4).", o(
                "object", constant("workflow"),
                "id", o("type", "string", "pattern", "^wf_"),
                "name", str("workflow name"),
                "steps", o("type", "array", "minItems", 1, "maxItems", 10, "items", ref("Step")),
                "created_at", timestamp("when it was saved", false)),
                "object", "id", "name", "steps"));
        s.put("WorkflowList", list("Workflow", "The account's saved workflows."));
        s.put("DeletedWorkflow", object("A deleted workflow (DESIGN §4).", o("object", constant("workflow"), "id", str("workflow id"),
                "deleted", deleted()), "object", "id", "deleted"));
        Map<String, Object> counter = object("Used this month and the limit (null = unlimited).",
                o("used", o("type", "integer", "minimum", 0), "limit", o("type", a("integer", "null"), "minimum", 0)), "used", "limit");
        s.put("Usage", object("This UTC calendar month's counts (DESIGN §4).", o(
                "object", constant("usage"),
                "plan", o("type", "string", "enum", Arrays.stream(Plan.values()).map(Plan::id).toList()),
                "period_start", timestamp("start of the month (UTC)", false),
                "period_end", timestamp("end of the month (UTC), exclusive", false),
                "operations", counter,
                "ai_operations", counter),
                "object", "plan", "period_start", "period_end", "operations", "ai_operations"));
        s.put("Model", object("A model the account can use (spec §2.5, DESIGN §4).", o(
                "object", constant("model"),
                "id", o("type", "string", "description", "<provider_prefix>/<model_name>"),
                "provider", str("provider prefix"),
                "source", o("type", "string", "enum", a("service", "account"), "description", "service = the service's own model; account = a provider key the account added"),
                "reads_pdf", o("type", "boolean", "description", "whether PDFs are sent natively (false: text is sent, OCR'd for scans)")),
                "object", "id", "provider", "source", "reads_pdf"));
        Map<String, Object> pipeline = o("type", a("string", "null"), "description", "model id used when a request names none: "
                + "the account's choice (developer area, provider keys page), else the service's model for the pipeline, else the model of "
                + "the account's oldest provider key; null when no model is available");
        s.put("ModelList", object("Models the account can use and which one each pipeline uses.", o(
                "object", constant("list"),
                "data", o("type", "array", "items", ref("Model")),
                "pipelines", object("Model id per pipeline.", o("extraction", pipeline, "questions", pipeline, "agent", pipeline, "editor", pipeline),
                        "extraction", "questions", "agent", "editor")),
                "object", "data", "pipelines"));
        s.put("Service", object("What this service is (DESIGN §4).", o(
                "object", constant("service"), "name", str("service name"), "version", str("interface version"),
                "openapi_url", o("type", "string", "format", "uri")),
                "object", "name", "version", "openapi_url"));
        s.put("WebhookEvent", object("A webhook delivery body (spec §6). Signed in the spec's Service-Signature header and in the "
                + "Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature (an addition).", o(
                "id", o("type", "string", "pattern", "^whd_", "description", "the event's id (an addition): the webhook-id header, the "
                        + "same on every attempt of one delivery, so a receiver can drop a retry it already handled"),
                "type", o("type", "string", "enum", a("job.succeeded", "job.failed")),
                "created_at", timestamp("when the event was created", false),
                "data", ref("Job")),
                "id", "type", "created_at", "data"));
        s.put("DocumentModel", RecordSchema.of(DocumentModel.class, "A PDF's document model (issue 36; an addition): "
                + "POST /convert {to: json} returns it, POST /chunk reads it. Version " + DocumentModel.VERSION + " (the version "
                + "member; a change of shape is a new version). Pages in page order, each with its elements in reading order: type, "
                + "text, page (from 1), box (points from the page's top-left corner, as the page is seen), font_size, bold and "
                + "index (reading order over the whole document, from 0); a heading's or list item's level, a list item's list "
                + "and marker, a table's rows of cells with their spans (each row in reading order: a right-to-left table's from its right), a picture's number on its page, a form field's name, the hyperlinks on its text (links: each the linked text as "
                + "the element's text holds it, in order, and its http, https, ftp or mailto address; other addresses are left out). "
                + "page_header, page_footer and page_number elements are the page's running furniture. A heading the file's "
                + "outline names but no page prints (a workbook's sheet name, from LibreOffice's bookmarks) stands first on "
                + "its page with a box of no width or height at the page's top-left corner and font_size 0."));
        return s;
    }

    /** Always true. A plain boolean: {@code const: true} breaks generated Java clients (okhttp-gson's boolean enum). */
    private static Map<String, Object> deleted() {
        return o("type", "boolean", "description", "always true");
    }

    /**
     * The job, whose {@code output} lists each member with the operations that declare it ({@link OperationSpec#outputs}).
     */
    private static Map<String, Object> job(Collection<Operation<?>> operations) {
        Map<String, Object> members = new LinkedHashMap<>();
        List<String> byOperation = new ArrayList<>();
        for (OutputMember m : OutputMember.ALL) {
            members.put(m.id(), m.schema());
            List<String> names = operations.stream().filter(op -> op.spec().outputs().contains(m)).map(Operation::name).toList();
            String who = switch (m) {
                case FILES -> "all";
                case NOTE -> String.join(", ", names) + "; any operation whose input was repaired first";
                case STEPS -> String.join(", ", names) + "; workflow runs";
                default -> String.join(", ", names);
            };
            byOperation.add(m.id() + " (" + who + ")");
        }
        Map<String, Object> output = o(
                "type", a("object", "null"),
                "description", "null until the job succeeds. Members by operation: " + String.join("; ", byOperation) + ".",
                "properties", members,
                "required", List.of("files"),
                "additionalProperties", false);
        Map<String, Object> input = object("What the job was asked to do. Options are stored with any password removed.", o(
                "files", o("type", "array", "items", str("file id")),
                "options", o("type", "object", "description", "the operation's options as given (empty for a workflow run)"),
                "steps", o("type", "array", "items", ref("Step"), "description", "workflow runs: the steps run, passwords removed"),
                "workflow", str("workflow runs of a saved workflow: its id")));
        return object("A job: one operation, workflow run or agent run (spec §2.3).", o(
                "object", constant("job"),
                "id", o("type", "string", "pattern", "^job_"),
                "operation", str("operation run, e.g. ocr (workflow for workflow runs)"),
                "status", o("type", "string", "enum", Arrays.stream(JobStatus.values()).map(JobStatus::id).toList()),
                "created_at", timestamp("when the job was created", false),
                "started_at", timestamp("when a runner claimed it", true),
                "finished_at", timestamp("when it finished", true),
                "input", input,
                "output", output,
                "error", o("oneOf", a(o("type", "null"), ref("ErrorDetail")), "description", "null unless failed"),
                "progress", object("Present while running (DESIGN §4).", o(
                        "done", o("type", "integer", "minimum", 0), "total", o("type", "integer", "minimum", 0),
                        "unit", str("what is counted, e.g. pages")), "done", "total", "unit"),
                "webhook", object("Present when webhook_url was given: how delivery went (DESIGN §4).", o(
                        "url", o("type", "string", "format", "uri"),
                        "status", o("type", "string", "enum", a("pending", "delivered", "failed")),
                        "attempts", o("type", "array", "items", object("One delivery attempt.", o(
                                "at", timestamp("when it was tried", false),
                                "status_code", o("type", a("integer", "null"), "description", "the receiver's HTTP status; null when no answer"),
                                "error", o("type", a("string", "null"), "description", "why it failed, if it did")),
                                // every member required: stock generators (resttemplate) turn an optional nullable member
                                // into JsonNullable, which their default object mapper cannot read (issue 39)
                                "at", "status_code", "error"))),
                        "url", "status", "attempts")),
                "object", "id", "operation", "status", "created_at", "started_at", "finished_at", "input", "output", "error");
    }
}
