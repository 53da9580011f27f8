package dev.docapi.engines.chromium;

import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Prints HTML to PDF with one warm headless Chromium driven over the DevTools protocol (DESIGN §2 "HTML/Markdown →
 * PDF"). Each document gets its own tab; the document is served to that tab by request interception from memory
 * at {@link #DOCUMENT_URL}, and EVERY other request the page makes (images, styles, frames, fetches; http, https,
 * file) is failed before it leaves the browser. Behind that, the browser runs in the engine sandbox (issue 9): no
 * network at all (no TCP, no UDP, so no WebRTC either), only its own profile folder, killed with the service; it is
 * driven over a pipe, not a port. It also resolves no host names and has a proxy to nowhere. {@code data:} URLs (inline
 * images) still render because they are not requests.
 *
 * <p>The browser starts on first use and is restarted when it dies or stops answering; a document that hangs the
 * page fails after {@code docapi.chromium.timeout} and only its tab is closed.
 */
@Component
public class Chromium {
    private static final Logger log = LoggerFactory.getLogger(Chromium.class);
    /** The address the document is served at inside the browser; {@code .invalid} never resolves (RFC 2606). */
    public static final String DOCUMENT_URL = "http://document.invalid/";
    /**
     * Hands the browser this process's stdin and stdout as its DevTools pipe (fd 3 in, fd 4 out, as
     * {@code --remote-debugging-pipe} expects); its own stdin and stdout become {@code /dev/null}.
     */
    private static final String PIPE_ON_STDIO = "exec \"$@\" 3<&0 4>&1 </dev/null >/dev/null";

    private final Sandbox sandbox;
    private final Path binary;
    private final Duration timeout;
    private final Semaphore tabs;
    private final int tabCount;
    private volatile Process process;
    private volatile DevTools devtools;
    /** Tabs opened ahead of the documents that will use them, at most one per concurrent print. */
    private final java.util.concurrent.BlockingQueue<CompletableFuture<Tab>> spares = new java.util.concurrent.LinkedBlockingQueue<>();
    private Path profile;

    /** Page geometry in inches; A4 with 0.5 in margins unless the document's CSS {@code @page} says otherwise. */
    public record PageSetup(double width, double height, double margin) {
        public static final PageSetup A4 = new PageSetup(8.27, 11.69, 0.5);
    }

    public Chromium(Sandbox sandbox, @Value("${docapi.chromium.binary:/usr/bin/chromium}") String binary,
                    @Value("${docapi.chromium.timeout:60s}") Duration timeout,
                    @Value("${docapi.chromium.tabs:2}") int tabs) {
        this.sandbox = sandbox;
        this.binary = Path.of(binary);
        this.timeout = timeout;
        this.tabCount = Math.max(1, tabs);
        this.tabs = new Semaphore(tabCount, true);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Process p = process;
            if (p != null) ProcessRunner.killTree(p);
        }, "chromium-cleanup"));
    }

    public boolean available() {
        return Files.isExecutable(binary);
    }

    /** The process id of the running browser, if one is running (for operators and tests). */
    public java.util.OptionalLong pid() {
        Process p = process;
        return p != null && p.isAlive() ? java.util.OptionalLong.of(p.pid()) : java.util.OptionalLong.empty();
    }

    @org.springframework.context.event.EventListener(org.springframework.boot.context.event.ApplicationReadyEvent.class)
    void report() {
        if (available()) log.info("engine chromium: {} (HTML, Markdown, text → PDF; started on first use)", binary);
        else log.warn("engine chromium: not found at {}; HTML, Markdown and text → PDF answer 503", binary);
    }

    /** The command line of the browser; also used by the benchmark's per-file baseline. */
    public static List<String> isolationFlags() {
        return List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
                "--disable-extensions", "--mute-audio", "--hide-scrollbars", "--disable-dev-shm-usage",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=socks5://127.0.0.1:9",
                "--proxy-bypass-list=<-loopback>", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
                "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication");
    }

    /**
     * Prints {@code html} (a complete document; served as UTF-8) to {@code out}.
     *
     * @param blocked receives each URL the page tried to load and was refused (may be null)
     * @throws IOException when the browser cannot start, the page does not load and print within the timeout, or
     *                     printing fails; {@code out} is then absent
     */
    public void print(String html, PageSetup page, Path out, List<String> blocked) throws IOException, InterruptedException {
        tabs.acquire();
        try {
            try {
                printOnce(html, page, out, blocked);
            } catch (DevToolsGone e) {
                // the browser died (or was killed) under us: one fresh start, one retry
                log.warn("Chromium stopped answering ({}); restarting it", e.getMessage());
                restart();
                printOnce(html, page, out, blocked);
            }
        } catch (IOException e) {
            Files.deleteIfExists(out);
            throw e;
        } finally {
            tabs.release();
        }
    }

    private static final class DevToolsGone extends IOException {
        DevToolsGone(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A tab opened ahead of the document it will print: in a browser context of its own (so no document sees
     * another's storage, cookies or cache: every document has the same origin, {@link #DOCUMENT_URL}), created,
     * attached, with request interception and page events on. Opening it is a third of a print's time (issue 16,
     * bench/RESULTS-convert.md), so it is done while the previous document's answer is on its way; its context is
     * disposed of with it.
     */
    private record Tab(DevTools dt, String context, String target, String session) {
    }

    private void printOnce(String html, PageSetup page, Path out, List<String> blocked) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Tab tab;
        try {
            tab = takeTab();
        } catch (IOException e) {
            throw new DevToolsGone(e.getMessage(), e);
        }
        DevTools dt = tab.dt();
        String sid = tab.session();
        long tTab = System.nanoTime();
        Duration step = Duration.ofSeconds(15);
        List<String> refused = Collections.synchronizedList(new ArrayList<>());
        boolean printed = false;
        try {
            CompletableFuture<Void> loaded = new CompletableFuture<>();
            serve(tab, html.getBytes(StandardCharsets.UTF_8), refused);
            dt.on(sid, "Page.loadEventFired", ev -> loaded.complete(null));
            JsonNode nav = dt.call(sid, "Page.navigate", DevTools.params().put("url", DOCUMENT_URL), step);
            if (nav.has("errorText")) throw new IOException("the page did not load: " + nav.get("errorText").asString());
            try {
                loaded.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new IOException("the page did not finish loading within " + timeout.toSeconds() + " s");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IOException("the page did not load", e.getCause());
            }
            long tLoad = System.nanoTime();
            ObjectNode print = DevTools.params().put("printBackground", true).put("preferCSSPageSize", true)
                    .put("paperWidth", page.width()).put("paperHeight", page.height())
                    .put("marginTop", page.margin()).put("marginBottom", page.margin())
                    .put("marginLeft", page.margin()).put("marginRight", page.margin());
            String data = dt.call(sid, "Page.printToPDF", print, timeout).path("data").asString("");
            if (data.isEmpty()) throw new IOException("Chromium printed nothing");
            long tPrint = System.nanoTime();
            Path tmp = out.resolveSibling(out.getFileName() + ".part");
            Files.write(tmp, Base64.getDecoder().decode(data));
            Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            printed = true;
            // where a print's time goes (bench/RESULTS-convert.md): waiting for a tab, loading, printing, writing
            log.debug("printed in {} ms: tab {}, load {}, print {}, write {}", ms(System.nanoTime() - t0), ms(tTab - t0),
                    ms(tLoad - tTab), ms(tPrint - tLoad), ms(System.nanoTime() - tPrint));
        } finally {
            dt.forget(sid);
            if (blocked != null) blocked.addAll(refused);
            if (!refused.isEmpty()) log.info("blocked {} request(s) of a printed page, e.g. {}", refused.size(), refused.getFirst());
            if (printed) {
                // the document is out: closing its tab and readying the next one need not delay the answer
                Thread.ofVirtual().name("chromium-tab").start(() -> {
                    if (dispose(tab)) addSpare(dt);
                });
            } else if (dispose(tab)) {
                addSpare(dt);
            }
        }
    }

    /**
     * Answers the tab's requests: {@link #DOCUMENT_URL} gets {@code body} (HTML), every other URL is failed and
     * added to {@code refused}.
     */
    private static void serve(Tab tab, byte[] body, List<String> refused) {
        DevTools dt = tab.dt();
        String sid = tab.session();
        String encoded = Base64.getEncoder().encodeToString(body);
        dt.on(sid, "Fetch.requestPaused", ev -> {
            String requested = ev.path("request").path("url").asString("");
            String requestId = ev.path("requestId").asString();
            if (requested.equals(DOCUMENT_URL)) {
                ObjectNode f = DevTools.params().put("requestId", requestId).put("responseCode", 200).put("body", encoded);
                f.putArray("responseHeaders").addObject().put("name", "Content-Type").put("value", "text/html; charset=utf-8");
                dt.send(sid, "Fetch.fulfillRequest", f);
            } else {
                refused.add(requested);
                dt.send(sid, "Fetch.failRequest", DevTools.params().put("requestId", requestId).put("errorReason", "BlockedByClient"));
            }
        });
    }

    /**
     * A spare tab of the running browser (waiting for one that is being readied), or a new one when there is none.
     * Spares of a browser that has since been stopped are dropped.
     */
    private Tab takeTab() throws IOException, InterruptedException {
        DevTools dt = browser();
        for (CompletableFuture<Tab> next; (next = spares.poll()) != null; ) {
            Tab tab;
            try {
                tab = next.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                continue;
            }
            if (tab != null && tab.dt() == dt) return tab;
        }
        return openTab(dt);
    }

    /** Opens a tab as {@link Tab} describes. */
    private Tab openTab(DevTools dt) throws IOException, InterruptedException {
        Duration step = Duration.ofSeconds(15);
        String context = dt.call(null, "Target.createBrowserContext", null, step)
                .path("browserContextId").asString();
        Tab tab = new Tab(dt, context, null, null);
        try {
            String target = dt.call(null, "Target.createTarget", DevTools.params().put("url", "about:blank")
                    .put("browserContextId", context), step).path("targetId").asString();
            tab = new Tab(dt, context, target, null);
            String session = dt.call(null, "Target.attachToTarget", DevTools.params().put("targetId", target).put("flatten", true), step)
                    .path("sessionId").asString();
            tab = new Tab(dt, context, target, session);
            ObjectNode fetch = DevTools.params();
            fetch.putArray("patterns").addObject().put("urlPattern", "*").put("requestStage", "Request");
            dt.call(session, "Fetch.enable", fetch, step);
            dt.call(session, "Page.enable", null, step);
            return tab;
        } catch (IOException | RuntimeException e) {
            dispose(tab);
            throw e;
        }
    }

    /** Starts readying a spare tab of {@code dt}, unless there is one per concurrent print already. */
    private void addSpare(DevTools dt) {
        if (spares.size() < tabCount) spares.add(CompletableFuture.supplyAsync(() -> openTabOrNull(dt), Thread::startVirtualThread));
    }

    /** {@link #openTab}, or null when that fails (the next print then opens its own and reports the failure). */
    private Tab openTabOrNull(DevTools dt) {
        try {
            return dt.isOpen() ? openTab(dt) : null;
        } catch (IOException e) {
            log.debug("a spare Chromium tab could not be opened: {}", e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Closes the tab. A tab that does not close (e.g. a script loop holds its renderer) costs the browser a restart
     * rather than staying. True when the browser it belonged to is still the running one (so a spare may replace
     * the tab).
     */
    private boolean dispose(Tab tab) {
        try {
            if (tab.target() != null) tab.dt().call(null, "Target.closeTarget", DevTools.params().put("targetId", tab.target()), Duration.ofSeconds(5));
            tab.dt().call(null, "Target.disposeBrowserContext", DevTools.params().put("browserContextId", tab.context()), Duration.ofSeconds(5));
            return tab.dt() == devtools && tab.dt().isOpen();
        } catch (IOException e) {
            if (tab.dt() == devtools) {
                log.warn("Chromium tab did not close ({}); restarting the browser", e.getMessage());
                restart();
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Milliseconds with one decimal, for the timing log. */
    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private synchronized DevTools browser() throws IOException {
        if (devtools != null && devtools.isOpen() && process != null && process.isAlive()) return devtools;
        stopBrowser();
        long t0 = System.nanoTime();
        profile = sandbox.newScratchDir("chromium-");
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", PIPE_ON_STDIO, "sh", binary.toString()));
        cmd.addAll(isolationFlags());
        // in the sandbox the profile and Chromium's own sockets go to its private /tmp: short paths, gone with it
        cmd.add("--user-data-dir=" + (sandbox.enabled() ? "/tmp/profile" : profile.toString()));
        cmd.add("--remote-debugging-pipe");
        cmd.add("about:blank");
        // no memory bound: V8 reserves terabytes of address space, so RLIMIT_AS would stop every page
        Sandbox.Bounds bounds = new Sandbox.Bounds(0, 0, sandbox.defaults().fileBytes());
        ProcessBuilder pb = new ProcessBuilder(sandbox.wrap(cmd, Sandbox.Access.of(profile), bounds, Map.of("TMPDIR", "/tmp")));
        if (!sandbox.enabled()) pb.environment().put("HOME", profile.toString());
        Process p = ProcessRunner.spawn(pb);
        Thread.ofVirtual().name("chromium-log").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) log.debug("chromium: {}", line);
            } catch (IOException ignored) {
                // the browser was stopped
            }
        });
        DevTools dt = DevTools.over(p.getInputStream(), p.getOutputStream());
        try {
            dt.call(null, "Browser.getVersion", null, Duration.ofSeconds(30));
        } catch (IOException | InterruptedException e) {
            dt.close();
            ProcessRunner.killTree(p);
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw new IOException("Chromium did not start: " + e.getMessage(), e);
        }
        devtools = dt;
        process = p;
        log.info("Chromium started in {} ms{}", (System.nanoTime() - t0) / 1_000_000, sandbox.enabled() ? ", sandboxed" : "");
        addSpare(dt);
        return devtools;
    }

    private synchronized void restart() {
        stopBrowser();
    }

    @jakarta.annotation.PreDestroy
    public synchronized void stopBrowser() {
        spares.clear(); // their tabs are the stopped browser's
        if (devtools != null) devtools.close();
        devtools = null;
        if (process != null) ProcessRunner.killTree(process);
        process = null;
        if (profile != null) FileSystemUtils.deleteRecursively(profile.toFile());
        profile = null;
    }
}
