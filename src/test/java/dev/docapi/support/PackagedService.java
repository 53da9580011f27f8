package dev.docapi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged service ({@code target/docapi.jar}, built by {@code mvn verify}'s package phase) as a separate process
 * on its own data dir and port, for tests that kill or stop it (failsafe {@code *IT}).
 */
public final class PackagedService {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();
    private final Path data;
    private final int port;
    private final int managementPort;
    private final java.util.Map<String, String> env = new java.util.LinkedHashMap<>();
    private Process process;

    public PackagedService() throws IOException {
        this.data = Files.createTempDirectory("docapi-packaged-");
        try (ServerSocket s = new ServerSocket(0); ServerSocket m = new ServerSocket(0)) {
            this.port = s.getLocalPort();
            this.managementPort = m.getLocalPort();
        }
        env.put("DOCAPI_MANAGEMENT_PORT", String.valueOf(managementPort));
    }

    /** The management port's address: probes, metrics and the admin API (issue 24). */
    public String management() {
        return "http://localhost:" + managementPort;
    }

    public int managementPort() {
        return managementPort;
    }

    /** Sets an environment variable of the service and of its admin CLI (before {@link #start}). */
    public PackagedService env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Everything the service printed, over all its starts. */
    public String logs() throws IOException {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(data)) {
            for (Path p : files.filter(f -> f.getFileName().toString().startsWith("service-")).sorted().toList()) all.append(Files.readString(p));
        }
        return all.toString();
    }

    public Path dataDir() {
        return data;
    }

    public Process process() {
        return process;
    }

    public String base() {
        return "http://localhost:" + port + "/v1";
    }

    /**
     * Starts the jar and waits until it answers: at most 240 s (a start takes 10-35 s on a loaded 2-core machine, and
     * was seen at 175 s with three other services and a container build beside it); a service that exits fails at once.
     */
    public PackagedService start() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(startArgs());
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true).redirectOutput(data.resolve("service-" + System.nanoTime() + ".log").toFile());
        pb.environment().put("DOCAPI_DATA_DIR", data.toString());
        pb.environment().put("DOCAPI_PORT", String.valueOf(port));
        pb.environment().put("DOCAPI_OFFICE_WARM", "false");
        pb.environment().putAll(env);
        process = pb.start();
        for (int i = 0; i < 2400 && process.isAlive(); i++) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base())).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) return this;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the service did not start" + (process.isAlive() ? " within 240 s" : ": it exited " + process.exitValue()));
    }

    /**
     * Runs an admin command and returns the last line of what it printed: while the service runs, through its admin API
     * ({@code POST /admin/commands} on the management port, with the token derived from its key file) — the request
     * {@code bin/docapi admin} itself sends, without starting a JVM for it (about 20 starts in the ITs); otherwise
     * with the CLI, which then runs the command in its own JVM ({@link #cli}).
     */
    public String admin(String... args) throws Exception {
        String out = adminOutput(args);
        return out.substring(out.lastIndexOf('\n') + 1);
    }

    /** As {@link #admin} but all of what the command printed on its standard output. */
    public String adminOutput(String... args) throws Exception {
        if (process == null || !process.isAlive()) return cliOutput(args);
        String token = dev.docapi.config.MasterKey.adminToken(data, env.get("DOCAPI_SECRET")).orElseThrow();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(management() + "/admin/commands"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(java.util.Map.of("args", List.of(args))))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.body());
        assertThat(answer.get("exit_code").asInt()).as(r.body()).isZero();
        return answer.get("stdout").asString().strip();
    }

    /**
     * Runs {@code java -jar docapi.jar admin ...} (the CLI itself) and returns the last line of its output: beside the
     * running service it reaches the admin API, with the service stopped it runs the command in its own JVM.
     */
    public String cli(String... args) throws Exception {
        String out = cliOutput(args);
        return out.substring(out.lastIndexOf('\n') + 1);
    }

    /**
     * The CLI's whole output; as {@code bin/docapi admin} does, from the extracted jar (no nested-jar launcher) with C1
     * only and a small heap, about half the time of a plain {@code java -jar} (the same classes: only the way they are
     * loaded differs).
     */
    private String cliOutput(String... args) throws Exception {
        List<String> start = startArgs();
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        cmd.addAll(start.subList(start.indexOf("-jar"), start.size()));
        cmd.add("admin");
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("DOCAPI_DATA_DIR", data.toString());
        pb.environment().put("DOCAPI_PORT", String.valueOf(port));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    /** A new account on {@code plan} and its key, made with the admin command {@code create-account}. */
    public String newKey(String email, String plan) throws Exception {
        return admin("create-account", "--email", email, "--plan", plan);
    }

    /** Uploads {@code file} as raw bytes and returns its id. */
    public String upload(String key, Path file) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + "/files?name=" + file.getFileName()))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofFile(file)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body()).get("id").asString();
    }

    /** POSTs JSON and returns the body, asserting {@code status}. */
    public JsonNode post(String key, String path, Object body, int status) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    public JsonNode get(String key, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** Polls the job until it is {@code running} (at most 2 min: a bound on "it starts", not on speed) and returns it. */
    public JsonNode awaitRunning(String key, String jobId) throws Exception {
        JsonNode job = get(key, "/jobs/" + jobId);
        for (int i = 0; i < 1200 && job.get("status").asString().equals("queued"); i++) {
            Thread.sleep(100);
            job = get(key, "/jobs/" + jobId);
        }
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("running");
        return job;
    }

    /** The live processes whose command line mentions this service's data dir (its sandboxed engines). */
    public List<ProcessHandle> engineProcesses() {
        String marker = data.toString();
        return ProcessHandle.allProcesses()
                .filter(ph -> ph.pid() != ProcessHandle.current().pid() && (process == null || ph.pid() != process.pid()))
                .filter(ph -> ph.info().commandLine().orElse("").contains(marker)).toList();
    }

    /** Kills the service's JVM alone with SIGKILL (its engines must die by themselves) and waits for it. */
    public void killJvm() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Sends SIGTERM to the JVM and waits for it to exit. */
    public void terminate() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    private static List<String> startArgs;

    /**
     * The arguments that start the packaged jar fast (issue 41), made once per test JVM by {@code scripts/aot-cache}
     * into {@code target/it-start}: the extracted jar and a JDK AOT cache trained by one start (a start and a half,
     * once per build; each of the ~17 starts of the ITs then takes about a third of the time). {@code -jar
     * target/docapi.jar} when the script fails: slower, not different.
     */
    private static synchronized List<String> startArgs() throws IOException, InterruptedException {
        if (startArgs != null) return startArgs;
        Path java = Path.of(java());
        ProcessBuilder pb = new ProcessBuilder(Path.of("scripts", "aot-cache").toAbsolutePath().toString(), jar().toString(),
                Path.of("target", "it-start").toAbsolutePath().toString()).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (java.getParent() != null && java.getParent().getParent() != null) pb.environment().put("JAVA_HOME", java.getParent().getParent().toString());
        Process p = pb.start();
        List<String> args = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        startArgs = p.waitFor() == 0 && args.contains("-jar") ? args : List.of("-jar", jar().toString());
        return startArgs;
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static Path jar() {
        Path jar = Path.of("target", "docapi.jar").toAbsolutePath();
        if (!Files.exists(jar)) throw new IllegalStateException("run with 'mvn verify': " + jar + " is built in the package phase");
        return jar;
    }
}
