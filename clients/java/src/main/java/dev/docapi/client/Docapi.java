package dev.docapi.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docapi.client.generated.ApiClient;
import dev.docapi.client.generated.model.ErrorCode;
import dev.docapi.client.generated.model.FileObject;
import dev.docapi.client.generated.model.Job;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * A docapi client: the helpers people otherwise write by hand, over the models generated from the service's OpenAPI
 * description ({@code dev.docapi.client.generated.model}). Every other endpoint is reachable through
 * {@link #apiClient()} and the generated {@code dev.docapi.client.generated.api} classes.
 *
 * <p>Every request is sent again on 429 and 503 (up to {@code maxRetries} times), after {@code Retry-After} or else a
 * backoff. Error answers throw {@link DocapiException} with the spec's code; I/O failures throw {@link IOException}.
 */
public final class Docapi {
    private static final Duration MAX_POLL_DELAY = Duration.ofSeconds(5);
    private final URI baseUrl;
    private final String apiKey;
    private final HttpClient http;
    private final int maxRetries;
    private final ObjectMapper json = ApiClient.createDefaultObjectMapper();

    /** A client of the service at {@code baseUrl} (ending in /v1) with an API key; 5 retries on 429/503. */
    public Docapi(String baseUrl, String apiKey) {
        this(baseUrl, apiKey, HttpClient.newHttpClient(), 5);
    }

    public Docapi(String baseUrl, String apiKey, HttpClient http, int maxRetries) {
        this.baseUrl = URI.create(baseUrl.replaceAll("/+$", ""));
        this.apiKey = apiKey;
        this.http = http;
        this.maxRetries = maxRetries;
    }

    /** The generated client, configured with this base URL and key, e.g. {@code new AccountApi(docapi.apiClient()).getUsage()}. */
    public ApiClient apiClient() {
        ApiClient client = new ApiClient();
        client.updateBaseUri(baseUrl.toString());
        client.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + apiKey));
        return client;
    }

    /**
     * Uploads a local file under its own name.
     *
     * @throws DocapiException e.g. invalid_file, file_too_large (413), unsupported_file_type (415)
     */
    public FileObject upload(Path path) throws IOException, InterruptedException {
        return upload(HttpRequest.BodyPublishers.ofFile(path), path.getFileName().toString());
    }

    /** Uploads bytes as {@code name}; the service checks the contents against the name. */
    public FileObject upload(byte[] bytes, String name) throws IOException, InterruptedException {
        return upload(HttpRequest.BodyPublishers.ofByteArray(bytes), name);
    }

    /** Has the service fetch a public http(s) URL. @throws DocapiException e.g. fetch_failed */
    public FileObject upload(URI url) throws IOException, InterruptedException {
        String body = json.writeValueAsString(Map.of("url", url.toString()));
        return read(send(keyed(URI.create(baseUrl + "/files")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))), FileObject.class);
    }

    private FileObject upload(HttpRequest.BodyPublisher bytes, String name) throws IOException, InterruptedException {
        URI uri = URI.create(baseUrl + "/files?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
        return read(send(keyed(uri).header("Content-Type", "application/octet-stream").POST(bytes)), FileObject.class);
    }

    /** {@link #run(String, Object, boolean)} that waits for the end. */
    public Job run(String operation, Object request) throws IOException, InterruptedException {
        return run(operation, request, true);
    }

    /**
     * Runs an operation: {@code POST /{operation}} with {@code request} (a {@code Map}, or a generated request model
     * such as {@code RotateRequest}) and, when {@code wait}, polls its job until it succeeded (backoff from 0.5 s to
     * 5 s, at most 15 minutes).
     *
     * @return the job; without {@code wait} as accepted ({@code wait: 0}: queued, running or already finished)
     * @throws DocapiException for a refused request (400, 402, 404, 410, 429 after retries) and for a job that failed
     *     (its code, e.g. internal_error or interrupted, and the job)
     */
    public Job run(String operation, Object request, boolean wait) throws IOException, InterruptedException {
        JsonNode body = json.valueToTree(request);
        if (!body.isObject()) throw new IllegalArgumentException("the request of " + operation + " must be a JSON object");
        if (!wait) ((com.fasterxml.jackson.databind.node.ObjectNode) body).put("wait", 0);
        Job job = read(send(keyed(URI.create(baseUrl + "/" + operation)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))), Job.class);
        return wait ? waitFor(job, Duration.ofMinutes(15)) : job;
    }

    /**
     * Polls a job until it succeeded or failed, with backoff from 0.5 s to 5 s.
     *
     * @throws DocapiException when the job failed
     * @throws IllegalStateException when it is still running after {@code timeout}
     */
    public Job waitFor(Job job, Duration timeout) throws IOException, InterruptedException {
        Instant end = Instant.now().plus(timeout);
        Duration delay = Duration.ofMillis(500);
        Job current = job;
        while (current.getStatus() == Job.StatusEnum.QUEUED || current.getStatus() == Job.StatusEnum.RUNNING) {
            if (Instant.now().plus(delay).isAfter(end)) {
                throw new IllegalStateException("job " + current.getId() + " is still " + current.getStatus() + " after " + timeout);
            }
            Thread.sleep(delay.toMillis());
            delay = min(delay.multipliedBy(3).dividedBy(2), MAX_POLL_DELAY);
            current = job(current.getId());
        }
        if (current.getStatus() == Job.StatusEnum.FAILED) throw DocapiException.failed(current);
        return current;
    }

    /** The job now. @throws DocapiException job_not_found */
    public Job job(String id) throws IOException, InterruptedException {
        return read(send(keyed(URI.create(baseUrl + "/jobs/" + encode(id))).GET()), Job.class);
    }

    /** The file with a fresh download_url. @throws DocapiException file_not_found, file_expired */
    public FileObject file(String id) throws IOException, InterruptedException {
        return read(send(keyed(URI.create(baseUrl + "/files/" + encode(id))).GET()), FileObject.class);
    }

    /**
     * Writes a file's bytes to {@code path} through its signed {@code download_url} (no key); a link past its hour
     * (403 link_expired) is replaced by the keyed {@code GET /files/{id}/content}.
     *
     * @return path
     * @throws DocapiException file_not_found, file_expired
     */
    public Path download(FileObject file, Path path) throws IOException, InterruptedException {
        HttpResponse<InputStream> r = send(HttpRequest.newBuilder(file.getDownloadUrl()).GET(), 403);
        if (r.statusCode() == 403) {
            r.body().close();
            return download(file.getId(), path);
        }
        return save(r, path);
    }

    /** Writes the bytes of file {@code id} to {@code path} ({@code GET /files/{id}/content} with the key). */
    public Path download(String id, Path path) throws IOException, InterruptedException {
        return save(send(keyed(URI.create(baseUrl + "/files/" + encode(id) + "/content")).GET()), path);
    }

    private static Path save(HttpResponse<InputStream> r, Path path) throws IOException {
        try (InputStream in = r.body()) {
            Files.copy(in, path, StandardCopyOption.REPLACE_EXISTING);
        }
        return path;
    }

    private HttpRequest.Builder keyed(URI uri) {
        return HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + apiKey);
    }

    /**
     * Sends until the answer is not 429/503 or the retries are used, waiting Retry-After (else 1, 2, 4 ... s, at most
     * 30 s) between; an error answer other than {@code pass} becomes a DocapiException.
     */
    private HttpResponse<InputStream> send(HttpRequest.Builder request, int... pass) throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            int status = r.statusCode();
            if (status / 100 == 2 || java.util.Arrays.stream(pass).anyMatch(p -> p == status)) return r;
            Duration retryAfter = retryAfter(r);
            if ((status == 429 || status == 503) && attempt < maxRetries) {
                r.body().close();
                Thread.sleep((retryAfter != null ? retryAfter : min(Duration.ofSeconds(1L << attempt), Duration.ofSeconds(30))).toMillis());
                continue;
            }
            throw error(r, retryAfter);
        }
    }

    private DocapiException error(HttpResponse<InputStream> r, Duration retryAfter) throws IOException {
        JsonNode body;
        try (InputStream in = r.body()) {
            body = json.readTree(in);
        } catch (IOException notJson) {
            body = null;
        }
        JsonNode error = body == null ? null : body.path("error");
        ErrorCode code = r.statusCode() >= 500 ? ErrorCode.SERVICE_UNAVAILABLE : ErrorCode.INVALID_REQUEST;
        try {
            if (error != null && error.hasNonNull("code")) code = ErrorCode.fromValue(error.get("code").asText());
        } catch (IllegalArgumentException unknownCode) {
            // keep the status's fallback: the body is not the service's (e.g. a proxy's)
        }
        String message = error != null && error.hasNonNull("message") ? error.get("message").asText() : "HTTP " + r.statusCode();
        Job job = body != null && body.has("job") ? json.treeToValue(body.get("job"), Job.class) : null;
        return new DocapiException(r.statusCode(), code, message, job, retryAfter);
    }

    private <T> T read(HttpResponse<InputStream> r, Class<T> type) throws IOException {
        try (InputStream in = r.body()) {
            return json.readValue(in, type);
        }
    }

    /** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
    private static Duration retryAfter(HttpResponse<?> r) {
        String value = r.headers().firstValue("Retry-After").orElse(null);
        if (value == null) return null;
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim())));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration d = Duration.between(Instant.now(), ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
                return d.isNegative() ? Duration.ZERO : d;
            } catch (java.time.format.DateTimeParseException notDate) {
                return null;
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
