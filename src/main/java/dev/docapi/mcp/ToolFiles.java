package dev.docapi.mcp;

import dev.docapi.core.J;
import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.files.FileService;
import dev.docapi.files.UrlImporter;
import dev.docapi.operations.Inputs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * Files given to an MCP tool (spec §4.2 "files come in by URL or base64"): each is an existing file id
 * ({@code file_...}), a public http(s) URL (fetched through {@link UrlImporter}, so SSRF rules and the 100 MB cap
 * hold), or an object {@code {name, content_base64}} for small files, at most {@link #BASE64_MAX_BYTES} decoded.
 * URLs and base64 become ordinary files of the account (source {@code url} / {@code upload}, kept 24 hours).
 */
@Component
public class ToolFiles {
    /** Decoded size cap for base64 inputs: 10 MB (10,485,760 bytes); larger files go by URL or POST /files. */
    public static final int BASE64_MAX_BYTES = 10 * 1024 * 1024;

    private final FileService files;
    private final UrlImporter urls;

    public ToolFiles(FileService files, UrlImporter urls) {
        this.files = files;
        this.urls = urls;
    }

    /** The JSON Schema of one file reference. */
    public static Map<String, Object> fileSchema(String description) {
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("type", "string");
        ref.put("description", "a file id (file_...) from list_files or an earlier result, or a public http(s) URL to fetch");
        Map<String, Object> inline = new LinkedHashMap<>();
        inline.put("type", "object");
        inline.put("description", "a small file sent inline (at most 10 MB decoded)");
        inline.put("properties", J.o(
                "name", J.o("type", "string", "description", "file name with extension, e.g. report.pdf"),
                "content_base64", J.o("type", "string", "description", "the file's bytes, base64 encoded")));
        inline.put("required", List.of("name", "content_base64"));
        inline.put("additionalProperties", false);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("description", description);
        schema.put("anyOf", List.of(ref, inline));
        return schema;
    }

    /** The schema of the tool member that carries an operation's inputs ({@code file} or {@code files}). */
    public static Map<String, Object> inputSchema(Inputs in) {
        if (!in.many()) return fileSchema("the input file");
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "array");
        schema.put("description", in.min() + "-" + in.max() + " input files, in order");
        schema.put("items", fileSchema("an input file"));
        schema.put("minItems", in.min());
        schema.put("maxItems", in.max());
        return schema;
    }

    /**
     * Resolves the input member of a tool call to file ids, importing URLs and base64 files.
     *
     * @throws ApiException 400 {@code invalid_request} for a malformed reference or base64 over the cap, 400
     *                      {@code fetch_failed} for a URL that cannot be fetched, and any upload error
     */
    public List<String> resolve(Account account, JsonNode member, Inputs in) {
        if (member == null || member.isNull()) throw ApiException.invalid("'" + in.member() + "' is required");
        List<String> ids = new ArrayList<>();
        if (in.many()) {
            if (!member.isArray()) throw ApiException.invalid("'files' must be an array of files");
            for (JsonNode item : member) ids.add(resolveOne(account, item));
        } else {
            ids.add(resolveOne(account, member));
        }
        return ids;
    }

    private String resolveOne(Account account, JsonNode ref) {
        if (ref.isString()) {
            String s = ref.asString().strip();
            if (s.startsWith("http://") || s.startsWith("https://")) return urls.fetch(account, s, null).id();
            if (s.startsWith("file_")) return s;
            throw ApiException.invalid("a file must be a file id (file_...), an http(s) URL, or {name, content_base64}; got '" + abbreviate(s) + "'");
        }
        if (ref.isObject() && ref.path("content_base64").isString() && ref.path("name").isString()) {
            String data = ref.get("content_base64").asString();
            if ((long) data.length() * 3 / 4 > BASE64_MAX_BYTES + 3) {
                throw ApiException.invalid("content_base64 is larger than 10 MB; send a URL, or upload with POST /v1/files and pass the file id");
            }
            byte[] bytes;
            try {
                bytes = Base64.getMimeDecoder().decode(data);
            } catch (IllegalArgumentException e) {
                throw ApiException.invalid("content_base64 is not valid base64");
            }
            if (bytes.length > BASE64_MAX_BYTES) throw ApiException.invalid("content_base64 is larger than 10 MB");
            try {
                return files.store(account, new ByteArrayInputStream(bytes), ref.get("name").asString(), "upload").id();
            } catch (IOException e) {
                throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "the file could not be stored; try again", e);
            }
        }
        throw ApiException.invalid("a file must be a file id (file_...), an http(s) URL, or {name, content_base64}");
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
