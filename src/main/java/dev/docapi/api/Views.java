package dev.docapi.api;

import dev.docapi.files.FileService;
import dev.docapi.files.StoredFile;
import dev.docapi.jobs.Job;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON faces of resources: File (spec §2.2), Job (§2.3) and the list envelope (§2.1). */
@Component
public class Views {
    private final FileService files;
    private final JsonMapper json;

    public Views(FileService files, JsonMapper json) {
        this.files = files;
        this.json = json;
    }

    /** A File with a fresh one-hour {@code download_url}. */
    public ObjectNode file(StoredFile f) {
        ObjectNode n = json.createObjectNode();
        n.put("object", "file");
        n.put("id", f.id());
        n.put("name", f.name());
        n.put("size", f.size());
        n.put("content_type", f.contentType());
        if (f.pages() == null) n.putNull("pages");
        else n.put("pages", f.pages());
        n.put("created_at", iso(f.createdAt()));
        n.put("expires_at", iso(f.expiresAt()));
        n.put("source", f.source());
        n.put("download_url", files.downloadUrl(f));
        return n;
    }

    public ObjectNode job(Job j) {
        ObjectNode n = json.createObjectNode();
        n.put("object", "job");
        n.put("id", j.id());
        n.put("operation", j.operation());
        n.put("status", j.status().id());
        n.put("created_at", iso(j.createdAt()));
        n.put("started_at", iso(j.startedAt()));
        n.put("finished_at", iso(j.finishedAt()));
        n.set("input", j.input());
        n.set("output", j.output() == null ? null : output(j.output()));
        if (j.errorCode() == null) n.putNull("error");
        else n.set("error", json.createObjectNode().put("code", j.errorCode()).put("message", j.errorMessage()));
        if (j.progress() != null && !j.status().finished()) n.set("progress", j.progress());
        if (j.webhook() != null) n.set("webhook", j.webhook());
        return n;
    }

    /** {@code {object: "list", data: [...]}} */
    public ObjectNode list(List<? extends JsonNode> items) {
        ObjectNode n = json.createObjectNode();
        n.put("object", "list");
        n.putArray("data").addAll(items);
        return n;
    }

    /** The body of a job that ran and failed: {@code {error, job}} (spec §2.7). */
    public ObjectNode failed(Job j) {
        ObjectNode n = json.createObjectNode();
        n.set("error", json.createObjectNode().put("code", j.errorCode()).put("message", j.errorMessage()));
        n.set("job", job(j));
        return n;
    }

    public ObjectNode object(Map<String, ?> values) {
        return json.valueToTree(values);
    }

    /** Output with file ids replaced by File objects; step records keep their ids. */
    private ObjectNode output(ObjectNode stored) {
        ObjectNode out = stored.deepCopy();
        ArrayNode fileObjects = json.createArrayNode();
        for (JsonNode id : stored.path("files")) files.find(id.asString()).ifPresent(f -> fileObjects.add(file(f)));
        out.set("files", fileObjects);
        return out;
    }

    public static String iso(Instant t) {
        return t == null ? null : t.toString();
    }
}
