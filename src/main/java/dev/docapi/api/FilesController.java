package dev.docapi.api;

import dev.docapi.core.J;
import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.files.BlobStore;
import dev.docapi.files.FileService;
import dev.docapi.files.SignedLinks;
import dev.docapi.files.StoredFile;
import dev.docapi.files.UrlImporter;
import dev.docapi.http.Authenticated;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.commons.fileupload2.core.FileItemInput;
import org.apache.commons.fileupload2.core.FileItemInputIterator;
import org.apache.commons.fileupload2.core.FileUploadException;
import org.apache.commons.fileupload2.jakarta.servlet6.JakartaServletFileUpload;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Files (spec §4.1): upload (multipart, raw bytes, or a URL to fetch), list, get, content, delete. */
@RestController
public class FilesController {
    /** Room for multipart boundaries and headers on top of the 100 MB file cap. */
    private static final long MULTIPART_SLACK = 64 * 1024;
    /** The most of a refused upload's body read to keep its connection open (Tomcat's max-swallow-size was 2 MB). */
    private static final long DROPPED_REST = 2 * 1024 * 1024;

    private final FileService files;
    private final UrlImporter urls;
    private final SignedLinks links;
    private final Views views;
    private final JsonMapper json;

    public FilesController(FileService files, UrlImporter urls, SignedLinks links, Views views, JsonMapper json) {
        this.files = files;
        this.urls = urls;
        this.links = links;
        this.views = views;
        this.json = json;
    }

    @PostMapping("/v1/files")
    ResponseEntity<ObjectNode> upload(HttpServletRequest request, @RequestParam(required = false) String name) throws IOException {
        Account account = Authenticated.account(request);
        String type = request.getContentType() == null ? "" : request.getContentType().toLowerCase(java.util.Locale.ROOT);
        long length = request.getContentLengthLong();
        StoredFile f;
        if (type.startsWith("multipart/form-data")) {
            if (length > FileService.MAX_BYTES + MULTIPART_SLACK) throw tooLarge();
            f = dropRestIfTooLarge(request, () -> multipart(account, request));
        } else if (type.startsWith("application/json")) {
            f = fromUrl(account, request);
        } else if (type.startsWith("application/octet-stream") || type.isEmpty()) {
            if (length > FileService.MAX_BYTES) throw tooLarge();
            if (name == null || name.isBlank()) throw ApiException.invalid("raw uploads need the query parameter 'name' (e.g. ?name=report.pdf)");
            f = dropRestIfTooLarge(request, () -> files.store(account, request.getInputStream(), name, "upload"));
        } else {
            throw ApiException.invalid("upload as multipart/form-data (field 'file'), as application/octet-stream with ?name=, "
                    + "or send JSON {\"url\": ...}; got " + type);
        }
        return ResponseEntity.created(URI.create("/v1/files/" + f.id())).body(views.file(f));
    }

    private StoredFile multipart(Account account, HttpServletRequest request) throws IOException {
        Path received = null;
        String fileName = null;
        String name = null;
        try {
            FileItemInputIterator items = new JakartaServletFileUpload<>().getItemIterator(request);
            while (items.hasNext()) {
                FileItemInput item = items.next();
                try (InputStream in = item.getInputStream()) {
                    if (item.isFormField() && item.getFieldName().equals("name")) {
                        name = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
                    } else if (!item.isFormField() && item.getFieldName().equals("file") && received == null) {
                        fileName = item.getName();
                        received = files.receive(in);
                    } else {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                }
            }
        } catch (FileUploadException e) {
            if (received != null) Files.deleteIfExists(received);
            throw ApiException.invalid("the multipart body could not be read: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            if (received != null) Files.deleteIfExists(received);
            throw e;
        }
        if (received == null) throw ApiException.invalid("the multipart body has no part named 'file'");
        String chosen = name != null && !name.isBlank() ? name : fileName;
        return files.register(account, received, chosen == null ? "upload" : chosen, "upload");
    }

    private StoredFile fromUrl(Account account, HttpServletRequest request) throws IOException {
        JsonNode body;
        try (InputStream in = request.getInputStream()) {
            body = json.readTree(in.readNBytes(64 * 1024));
        } catch (JacksonException e) {
            throw ApiException.invalid("the request body is not valid JSON");
        }
        if (body == null || !body.isObject()) throw ApiException.invalid("send {\"url\": \"https://...\", \"name\": optional}");
        JsonNode url = body.get("url");
        if (url == null || !url.isString() || url.asString().isBlank()) throw ApiException.invalid("'url' is required (an http or https URL)");
        for (String member : body.propertyNames()) {
            if (!member.equals("url") && !member.equals("name")) throw ApiException.invalid("unknown member '" + member + "'; send url and optionally name");
        }
        JsonNode name = body.get("name");
        if (name != null && !name.isNull() && !name.isString()) throw ApiException.invalid("'name' must be a string");
        return urls.fetch(account, url.asString(), name == null || name.isNull() ? null : name.asString());
    }

    @GetMapping("/v1/files")
    ObjectNode list(HttpServletRequest request, @RequestParam(required = false) String limit) {
        Account account = Authenticated.account(request);
        return views.list(files.list(account, Limits.limit(limit, 1, 200, 50)).stream().map(views::file).toList());
    }

    @GetMapping("/v1/files/{id}")
    ObjectNode get(HttpServletRequest request, @PathVariable String id) {
        return views.file(files.get(Authenticated.account(request), id));
    }

    /** With an API key, or without one when the signed {@code e}/{@code t} query is valid (spec §5 rule 4). */
    @GetMapping("/v1/files/{id}/content")
    void content(HttpServletRequest request, HttpServletResponse response, @PathVariable String id,
                 @RequestParam(required = false) String e, @RequestParam(required = false) String t) throws IOException {
        Account account = Authenticated.optional(request);
        StoredFile f;
        if (account != null) {
            f = files.get(account, id);
        } else {
            switch (links.check(id, e, t)) {
                case INVALID -> throw e == null && t == null
                        ? new ApiException(ErrorCode.MISSING_API_KEY, "send your API key, or use the file's signed download_url")
                        // the link is the credential here: altered or made for another file (spec §5: 401)
                        : new ApiException(ErrorCode.INVALID_API_KEY, "this download link's signature is not valid (the link was altered "
                        + "or belongs to another file); GET /v1/files/" + id + " with your API key returns a fresh download_url");
                case EXPIRED -> throw new ApiException(ErrorCode.LINK_EXPIRED, "this download link has expired (links are valid one hour); "
                        + "GET /v1/files/" + id + " returns a fresh download_url");
                case VALID -> { }
            }
            StoredFile found = files.find(id).filter(x -> x.deletedAt() == null)
                    .orElseThrow(() -> new ApiException(ErrorCode.FILE_NOT_FOUND, "no file '" + id + "'"));
            if (java.time.Instant.now().isAfter(found.expiresAt())) throw new ApiException(ErrorCode.FILE_EXPIRED, "file '" + id + "' has expired");
            f = found;
        }
        try (BlobStore.Content content = files.content(f)) {
            response.setStatus(200);
            response.setContentType("application/octet-stream");
            response.setContentLengthLong(content.length());
            response.setHeader("Content-Disposition", org.springframework.http.ContentDisposition.attachment()
                    .filename(f.name(), StandardCharsets.UTF_8).build().toString());
            if (request.getMethod().equals("HEAD")) return;
            try (OutputStream out = response.getOutputStream()) {
                content.stream().transferTo(out);
            }
        }
    }

    @DeleteMapping("/v1/files/{id}")
    Map<String, Object> delete(HttpServletRequest request, @PathVariable String id) throws IOException {
        files.delete(Authenticated.account(request), id);
        return J.o("object", "file", "id", id, "deleted", true);
    }

    private interface Receive {
        StoredFile run() throws IOException;
    }

    /**
     * Runs {@code receive}, which reads the body; when it passes 100 MB, reads and drops what is left of the body, up to
     * {@link #DROPPED_REST} bytes, before the 413: a body read to its end leaves the connection open for the client's
     * next request (issue 13). A longer rest is left unread and the server closes the connection.
     */
    private static StoredFile dropRestIfTooLarge(HttpServletRequest request, Receive receive) throws IOException {
        try {
            return receive.run();
        } catch (ApiException e) {
            if (e.code() == dev.docapi.core.ErrorCode.FILE_TOO_LARGE) {
                InputStream in = request.getInputStream();
                byte[] buf = new byte[64 * 1024];
                for (long dropped = 0; dropped <= DROPPED_REST; ) {
                    int n = in.read(buf);
                    if (n < 0) break;
                    dropped += n;
                }
            }
            throw e;
        }
    }

    private static ApiException tooLarge() {
        return new ApiException(dev.docapi.core.ErrorCode.FILE_TOO_LARGE, "the file is larger than 100 MB (104,857,600 bytes)");
    }
}
