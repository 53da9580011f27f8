package dev.docapi.engines.chromium;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.EngineFailure.Kind;
import dev.docapi.engines.process.MemoryCaps;
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
 * PDF"). Each document is served to a warm tab by request interception from memory, at an origin of its own
 * ({@link #documentUrl}), and EVERY other request the page makes (images, styles, frames, fetches; http, https,
 * file) is failed before it leaves the browser. Behind that, the browser runs in the engine sandbox (issue 9): no
 * network at all (no TCP, no UDP, so no WebRTC either), only its own profile folder, killed with the service; it is
 * driven over a pipe, not a port. It also resolves no host names and has a proxy to nowhere. {@code data:} URLs (inline
 * images) still render because they are not requests.
 *
 * <p>No document sees what another stored, before or at the same time (issue 16): all tabs share one in-memory
 * browser context and are reused, so that a document starts in a warm renderer, and documents are kept apart by
 * origin instead — each one is served at {@code http://<128 random bits>.document.invalid/}, so its localStorage,
 * sessionStorage, IndexedDB, BroadcastChannel, Web Locks and shared workers are its own (they are keyed by origin);
 * cookies, the one store shared across the origins of a site, are switched off in every tab
 * ({@code Emulation.setDocumentCookieDisabled}; no response but the document's own, which sets none, reaches a
 * page); service workers and Cache Storage need a secure origin, which these are not. After each print its tab is
 * recycled before another document may use it: navigated to {@code about:blank} (which also stops the document's
 * scripts), its {@code window.name} (which Chromium keeps across same-site navigations of a tab) and history
 * emptied, and its origin's stored data cleared. ConvertToPdfTest proves it, with documents one after the other and
 * two at once.
 *
 * <p>The browser starts on first use and is restarted when it dies or stops answering; a document that hangs the
 * page fails after {@code docapi.chromium.timeout} and only its tab is closed, as is a tab that does not come back
 * to {@code about:blank} promptly after a print.
 *
 * <p>Its failures are {@link EngineFailure}s of the same kinds as the process engines' (issue 40), observed in the
 * same block ({@link ProcessRunner#observe}): a page that does not load within the timeout is {@code TIMEOUT}; one
 * whose scripts or whose browser went past a memory bound is {@code BOUND_EXCEEDED}; a browser that cannot start,
 * stops answering or prints nothing is {@code FAILED}. None is the input's fault: any HTML is a page.
 */
@Component
public class Chromium {
    private static final Logger log = LoggerFactory.getLogger(Chromium.class);
    /** The site every document's origin belongs to; {@code .invalid} never resolves (RFC 2606). */
    static final String DOCUMENT_SITE = "document.invalid";
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    /**
     * Documents a tab prints before it is replaced by a new one: what a page leaves in its renderer and what the
     * origins' data clearing does not reach (a tab's sessionStorage areas) stay bounded.
     */
    static final int DOCUMENTS_PER_TAB = 100;
    /**
     * Hands the browser this process's stdin and stdout as its DevTools pipe (fd 3 in, fd 4 out, as
     * {@code --remote-debugging-pipe} expects); its own stdin and stdout become {@code /dev/null}.
     */
    private static final String PIPE_ON_STDIO = "exec \"$@\" 3<&0 4>&1 </dev/null >/dev/null";

    private final Sandbox sandbox;
    private final MemoryCaps caps;
    private final Path binary;
    private final Duration timeout;
    /** V8's heap per page ({@code DOCAPI_CHROMIUM_SCRIPT_MEMORY_MB}): a script allocating past it crashes its page only. */
    private final int scriptMemoryMb;
    private final Semaphore tabs;
    private final int tabCount;
    private volatile Process process;
    private volatile Browser browser;
    /**
     * Tabs free for the next document (being opened or recycled, or ready), at most one per concurrent print; a
     * future of null stands for a tab that could not be readied.
     */
    private final java.util.concurrent.BlockingQueue<CompletableFuture<Tab>> idle = new java.util.concurrent.LinkedBlockingQueue<>();
    private Path profile;
    /** The running browser's memory cgroup: a renderer past it is killed by the kernel, the browser lives on. */
    private volatile MemoryCaps.Cap cap;

    /** Page geometry in inches; A4 with 0.5 in margins unless the document's CSS {@code @page} says otherwise. */
    public record PageSetup(double width, double height, double margin) {
        public static final PageSetup A4 = new PageSetup(8.27, 11.69, 0.5);
    }

    private final ProcessRunner runner;
    private final java.util.concurrent.atomic.AtomicLong restarts = new java.util.concurrent.atomic.AtomicLong();

    public Chromium(Sandbox sandbox, MemoryCaps caps, @Value("${docapi.chromium.binary:/usr/bin/chromium}") String binary,
                    @Value("${docapi.chromium.timeout:60s}") Duration timeout,
                    @Value("${docapi.chromium.tabs:2}") int tabs,
                    @Value("${docapi.chromium.script-memory-mb:512}") int scriptMemoryMb, ProcessRunner runner) {
        this.sandbox = sandbox;
        this.caps = caps;
        this.scriptMemoryMb = scriptMemoryMb;
        this.runner = runner;
        this.binary = Path.of(binary);
        this.timeout = timeout;
        this.tabCount = Math.max(1, tabs);
        this.tabs = new Semaphore(tabCount, true);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Process p = process;
            if (p != null) ProcessRunner.stop(p);
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
     * @throws EngineFailure {@code TIMEOUT} when the page does not load and print within the timeout
     *                       ({@code DOCAPI_CHROMIUM_TIMEOUT}); {@code BOUND_EXCEEDED} when the page crashed past a memory
     *                       bound; {@code ENGINE_MISSING} when Chromium is not installed; {@code FAILED} when the browser
     *                       cannot start, stops answering or prints nothing. {@code out} is then absent
     */
    public void print(String html, PageSetup page, Path out, List<String> blocked) throws EngineFailure, InterruptedException {
        if (!available()) throw new EngineFailure(Kind.ENGINE_MISSING, "Chromium is not installed on this node");
        Sandbox.Bounds bounds = new Sandbox.Bounds(0, 0, sandbox.defaults().fileBytes());
        runner.observe("chromium", timeout, bounds, observation -> {
            try {
                printInTab(html, page, out, blocked);
            } catch (Stopped e) {
                throw new EngineFailure(e.kind, e.getMessage(), e);
            } catch (NotStarted e) {
                log.warn("Chromium could not be started: {}", e.getMessage());
                throw new EngineFailure(Kind.FAILED, "the browser that prints HTML could not be started on this node; the document was not printed", e);
            } catch (DevToolsGone e) {
                log.warn("Chromium stopped answering while printing: {}", e.getMessage());
                throw new EngineFailure(Kind.FAILED, "the browser stopped answering while printing the document and was restarted; "
                        + "the print may succeed if retried", e);
            } catch (IOException e) {
                log.warn("Chromium could not print a document: {}", e.toString());
                throw new EngineFailure(Kind.FAILED, "the browser could not print the document", e);
            }
            return null;
        });
    }

    /** The page was stopped by one of the document's bounds: the timeout or a memory bound ({@code kind} says which). */
    private static final class Stopped extends IOException {
        private final Kind kind;

        Stopped(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }
    }

    /** The browser could not be started (it exited at once, or did not answer its first calls). */
    private static final class NotStarted extends IOException {
        NotStarted(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Times the browser was restarted because it died or stopped answering. */
    public long restarts() {
        return restarts.get();
    }

    private void printInTab(String html, PageSetup page, Path out, List<String> blocked) throws IOException, InterruptedException {
        tabs.acquire();
        try {
            try {
                printOnce(html, page, out, blocked);
            } catch (DevToolsGone | NotStarted e) {
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

    /** A running browser: its DevTools connection and the one browser context its tabs live in. */
    private record Browser(DevTools dt, String context) {
    }

    /** A tab of {@code browser}, attached, with request interception, page events and cookies off; {@code printed} documents so far. */
    private record Tab(Browser browser, String target, String session, int printed) {
        DevTools dt() {
            return browser.dt();
        }
    }

    /** A fresh document address, {@code http://<32 hex digits>.document.invalid/}: an origin no other document had. */
    static String documentUrl() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return "http://" + java.util.HexFormat.of().formatHex(bits) + "." + DOCUMENT_SITE + "/";
    }

    private void printOnce(String html, PageSetup page, Path out, List<String> blocked) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Tab tab;
        try {
            tab = takeTab();
        } catch (NotStarted e) {
            throw e;
        } catch (IOException e) {
            throw new DevToolsGone(e.getMessage(), e);
        }
        DevTools dt = tab.dt();
        String sid = tab.session();
        String url = documentUrl();
        long tTab = System.nanoTime();
        List<String> refused = Collections.synchronizedList(new ArrayList<>());
        boolean printed = false;
        try {
            serve(tab, url, html.getBytes(StandardCharsets.UTF_8), refused);
            load(tab, url, timeout);
            long tLoad = System.nanoTime();
            ObjectNode print = DevTools.params().put("printBackground", true).put("preferCSSPageSize", true)
                    .put("paperWidth", page.width()).put("paperHeight", page.height())
                    .put("marginTop", page.margin()).put("marginBottom", page.margin())
                    .put("marginLeft", page.margin()).put("marginRight", page.margin());
            String data;
            try {
                data = dt.call(sid, "Page.printToPDF", print, timeout).path("data").asString("");
            } catch (DevTools.NoAnswer e) {
                throw new Stopped(Kind.TIMEOUT, "the page was not printed within " + timeout.toSeconds()
                        + " s (DOCAPI_CHROMIUM_TIMEOUT): it needs more time to lay out than one print may take");
            }
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
            serve(tab, null, null, null); // from now on the document's requests are refused and no longer reported
            if (blocked != null) blocked.addAll(refused);
            if (!refused.isEmpty()) log.info("blocked {} request(s) of a printed page, e.g. {}", refused.size(), refused.getFirst());
            if (printed) {
                // the document is out: recycling its tab need not delay the answer; the next print waits for it
                idle.add(CompletableFuture.supplyAsync(() -> recycleOrReplace(tab, url), Thread::startVirtualThread));
            } else if (dispose(tab)) {
                addSpare(tab.browser()); // the page hung or broke: its tab is not reused
            }
        }
    }

    /**
     * Navigates the tab to {@code url} and waits for that document's load event, at most {@code limit}.
     *
     * @throws IOException when it does not load in time, or its page crashed (its scripts passed the memory bound)
     */
    private void load(Tab tab, String url, Duration limit) throws IOException, InterruptedException {
        DevTools dt = tab.dt();
        // the load of this navigation, not a late one of the page before or of a frame: lifecycle events name their loader
        java.util.concurrent.BlockingQueue<String> loads = new java.util.concurrent.LinkedBlockingQueue<>();
        dt.on(tab.session(), "Page.lifecycleEvent", ev -> {
            if (ev.path("name").asString("").equals("load")) loads.add(ev.path("loaderId").asString(""));
        });
        dt.on(tab.session(), "Inspector.targetCrashed", ev -> loads.add(CRASHED));
        MemoryCaps.Cap browserCap = cap;
        long oomKills = browserCap == null ? 0 : browserCap.oomKills();
        try {
            JsonNode nav = dt.call(tab.session(), "Page.navigate", DevTools.params().put("url", url), Duration.ofSeconds(15));
            if (nav.has("errorText")) throw new IOException("the page did not load: " + nav.get("errorText").asString());
            String loader = nav.path("loaderId").asString("");
            long deadline = System.nanoTime() + limit.toNanos();
            for (String done; !loader.equals(done = loads.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)); ) {
                if (done == null) {
                    throw new Stopped(Kind.TIMEOUT, "the page did not finish loading within " + limit.toSeconds()
                            + " s (DOCAPI_CHROMIUM_TIMEOUT): its scripts or layout need more time than one print may take");
                }
                if (done == CRASHED) {
                    if (browserCap != null && browserCap.oomKills() > oomKills) {
                        throw new Stopped(Kind.BOUND_EXCEEDED, "the page crashed: it needed more than the " + browserCap.megabytes()
                                + " MB of memory the browser may use (DOCAPI_ENGINE_MEMORY_CAP_MB)");
                    }
                    throw new Stopped(Kind.BOUND_EXCEEDED, "the page crashed: its scripts needed more than the " + scriptMemoryMb
                            + " MB of memory a document may use (DOCAPI_CHROMIUM_SCRIPT_MEMORY_MB)");
                }
            }
        } finally {
            dt.off(tab.session(), "Page.lifecycleEvent");
            dt.off(tab.session(), "Inspector.targetCrashed");
        }
    }

    /** Put in the load queue when the page crashes (compared by identity). */
    private static final String CRASHED = new String("crashed");

    /**
     * Answers the tab's requests: {@code url} gets {@code body} (HTML), every other URL is failed and added to
     * {@code refused}. With a null {@code url}, every request is failed and none is reported.
     */
    private static void serve(Tab tab, String url, byte[] body, List<String> refused) {
        DevTools dt = tab.dt();
        String sid = tab.session();
        String encoded = body == null ? null : Base64.getEncoder().encodeToString(body);
        dt.on(sid, "Fetch.requestPaused", ev -> {
            String requested = ev.path("request").path("url").asString("");
            String requestId = ev.path("requestId").asString();
            if (requested.equals(url)) {
                ObjectNode f = DevTools.params().put("requestId", requestId).put("responseCode", 200).put("body", encoded);
                f.putArray("responseHeaders").addObject().put("name", "Content-Type").put("value", "text/html; charset=utf-8");
                dt.send(sid, "Fetch.fulfillRequest", f);
            } else {
                if (refused != null) refused.add(requested);
                dt.send(sid, "Fetch.failRequest", DevTools.params().put("requestId", requestId).put("errorReason", "BlockedByClient"));
            }
        });
    }

    /**
     * Makes a printed document's tab ready for the next one (see the class comment): {@code about:blank}, no
     * {@code window.name}, no history, nothing stored for {@code origin}'s document. A tab that does not get there
     * within a few seconds (e.g. a script loop holds its renderer), or that has printed {@link #DOCUMENTS_PER_TAB}
     * documents, is closed and a new one opened instead.
     *
     * @return the tab, or its replacement, or null when neither could be readied
     */
    private Tab recycleOrReplace(Tab tab, String documentUrl) {
        Duration step = Duration.ofSeconds(5);
        Tab next = null;
        try {
            load(tab, "about:blank", step);
            JsonNode blank = tab.dt().call(tab.session(), "Runtime.evaluate",
                    DevTools.params().put("expression", "window.name = ''; location.href").put("returnByValue", true), step);
            if (!"about:blank".equals(blank.at("/result/value").asString(""))) throw new IOException("the tab did not leave the document");
            tab.dt().call(tab.session(), "Page.resetNavigationHistory", null, step);
            if (tab.printed() + 1 < DOCUMENTS_PER_TAB) next = new Tab(tab.browser(), tab.target(), tab.session(), tab.printed() + 1);
        } catch (IOException e) {
            log.info("a Chromium tab was not reused ({}); opening another", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (next == null) next = dispose(tab) ? openTabOrNull(tab.browser()) : null;
        if (next != null) clearOrigin(next, documentUrl);
        return next;
    }

    /**
     * Drops what the document at {@code documentUrl} stored (any tab of the context can do it). Isolation does not
     * depend on it, as no origin is used twice; it keeps the in-memory context from growing with every document.
     */
    private static void clearOrigin(Tab tab, String documentUrl) {
        String origin = documentUrl.substring(0, documentUrl.length() - 1);
        try {
            tab.dt().call(tab.session(), "Storage.clearDataForOrigin", DevTools.params().put("origin", origin).put("storageTypes", "all"),
                    Duration.ofSeconds(5));
        } catch (IOException e) {
            log.warn("the stored data of a printed document could not be cleared: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A free tab of the running browser (waiting for one that is being readied), or a new one when there is none.
     * Tabs of a browser that has since been stopped are dropped.
     */
    private Tab takeTab() throws IOException, InterruptedException {
        Browser b = browser();
        for (CompletableFuture<Tab> next; (next = nextIdle()) != null; ) {
            Tab tab;
            try {
                tab = next.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
                continue;
            }
            if (tab != null && tab.browser() == b) return tab;
        }
        return openTab(b);
    }

    /**
     * A ready tab first, else the one whose readying started first: the tab of the document just printed is
     * usually still being recycled when the next document arrives, while another may be ready.
     */
    private CompletableFuture<Tab> nextIdle() {
        for (CompletableFuture<Tab> f : idle) {
            if (f.isDone() && idle.remove(f)) return f;
        }
        return idle.poll();
    }

    /** Opens a tab as {@link Tab} describes, in the browser's context. */
    private Tab openTab(Browser b) throws IOException, InterruptedException {
        Duration step = Duration.ofSeconds(15);
        DevTools dt = b.dt();
        String target = dt.call(null, "Target.createTarget", DevTools.params().put("url", "about:blank")
                .put("browserContextId", b.context()), step).path("targetId").asString();
        Tab tab = new Tab(b, target, null, 0);
        try {
            String session = dt.call(null, "Target.attachToTarget", DevTools.params().put("targetId", target).put("flatten", true), step)
                    .path("sessionId").asString();
            tab = new Tab(b, target, session, 0);
            serve(tab, null, null, null);
            ObjectNode fetch = DevTools.params();
            fetch.putArray("patterns").addObject().put("urlPattern", "*").put("requestStage", "Request");
            dt.call(session, "Fetch.enable", fetch, step);
            dt.call(session, "Page.enable", null, step);
            dt.call(session, "Inspector.enable", null, step); // Inspector.targetCrashed: a page out of memory
            dt.call(session, "Page.setLifecycleEventsEnabled", DevTools.params().put("enabled", true), step);
            dt.call(session, "Emulation.setDocumentCookieDisabled", DevTools.params().put("disabled", true), step);
            return tab;
        } catch (IOException | RuntimeException e) {
            dispose(tab);
            throw e;
        }
    }

    /** Starts readying a new tab of {@code b}, unless there is one per concurrent print already. */
    private void addSpare(Browser b) {
        if (idle.size() < tabCount) idle.add(CompletableFuture.supplyAsync(() -> openTabOrNull(b), Thread::startVirtualThread));
    }

    /** {@link #openTab}, or null when that fails (the next print then opens its own and reports the failure). */
    private Tab openTabOrNull(Browser b) {
        try {
            return b.dt().isOpen() ? openTab(b) : null;
        } catch (IOException e) {
            log.debug("a Chromium tab could not be opened: {}", e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Closes the tab. A tab that does not close (e.g. a script loop holds its renderer) costs the browser a restart
     * rather than staying. True when the browser it belonged to is still the running one (so a new tab may replace
     * it).
     */
    private boolean dispose(Tab tab) {
        tab.dt().forget(tab.session());
        // a print stopped with its job (its deadline passed) still closes its tab: its page may be running on
        // (issue 40 item 1)
        boolean interrupted = Thread.interrupted();
        try {
            tab.dt().call(null, "Target.closeTarget", DevTools.params().put("targetId", tab.target()), Duration.ofSeconds(5));
            return tab.browser() == browser && tab.dt().isOpen();
        } catch (IOException e) {
            if (tab.browser() == browser) {
                log.warn("Chromium tab did not close ({}); restarting the browser", e.getMessage());
                restart();
            }
            return false;
        } catch (InterruptedException e) {
            interrupted = true;
            return false;
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Milliseconds with one decimal, for the timing log. */
    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private synchronized Browser browser() throws IOException {
        if (browser != null && browser.dt().isOpen() && process != null && process.isAlive()) return browser;
        stopBrowser();
        long t0 = System.nanoTime();
        profile = sandbox.newScratchDir("chromium-");
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", PIPE_ON_STDIO, "sh", binary.toString()));
        cmd.addAll(isolationFlags());
        // in the sandbox the profile and Chromium's own sockets go to its private /tmp: short paths, gone with it
        cmd.add("--user-data-dir=" + (sandbox.enabled() ? "/tmp/profile" : profile.toString()));
        cmd.add("--remote-debugging-pipe");
        // a hostile page's scripts are bounded by V8's own heap limit (issue 31): past it the page crashes, is reported
        // (Inspector.targetCrashed) and fails its document at once, instead of growing for the whole load timeout
        cmd.add("--js-flags=--max-old-space-size=" + scriptMemoryMb);
        cmd.add("about:blank");
        // no memory bound: V8 reserves terabytes of address space, so RLIMIT_AS would stop every page
        Sandbox.Bounds bounds = new Sandbox.Bounds(0, 0, sandbox.defaults().fileBytes());
        // the kernel's cap holds the whole browser (issue 31): memory outside V8's heap too (array buffers, images)
        MemoryCaps.Cap browserCap = caps.open("chromium");
        cap = browserCap;
        ProcessBuilder pb = new ProcessBuilder(browserCap.enter(sandbox.wrap(cmd, Sandbox.Access.of(profile), bounds, Map.of("TMPDIR", "/tmp"))));
        if (!sandbox.enabled()) pb.environment().put("HOME", profile.toString());
        Process p;
        try {
            p = ProcessRunner.spawn(pb);
        } catch (IOException e) {
            throw new NotStarted("Chromium could not be run: " + e.getMessage(), e);
        }
        Thread.ofVirtual().name("chromium-log").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) log.debug("chromium: {}", line);
            } catch (IOException ignored) {
                // the browser was stopped
            }
        });
        DevTools dt = DevTools.over(p.getInputStream(), p.getOutputStream());
        String context;
        try {
            dt.call(null, "Browser.getVersion", null, Duration.ofSeconds(30));
            // in memory (off the record): nothing a document stores reaches the disk
            context = dt.call(null, "Target.createBrowserContext", null, Duration.ofSeconds(30)).path("browserContextId").asString();
        } catch (IOException | InterruptedException e) {
            dt.close();
            ProcessRunner.stop(p);
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw new NotStarted("Chromium did not start: " + e.getMessage(), e);
        }
        browser = new Browser(dt, context);
        process = p;
        log.info("Chromium started in {} ms{}", (System.nanoTime() - t0) / 1_000_000, sandbox.enabled() ? ", sandboxed" : "");
        // every tab opened ahead: back-to-back documents then alternate tabs, one printing while the other is
        // recycled, instead of each waiting for the recycling of the last (15-30 ms a document, bench/RESULTS-convert.md)
        for (int i = 0; i < tabCount; i++) addSpare(browser);
        return browser;
    }

    private synchronized void restart() {
        restarts.incrementAndGet();
        stopBrowser();
    }

    @jakarta.annotation.PreDestroy
    public synchronized void stopBrowser() {
        idle.clear(); // their tabs are the stopped browser's
        if (browser != null) browser.dt().close();
        browser = null;
        if (process != null) ProcessRunner.stop(process);
        process = null;
        if (cap != null) cap.close();
        cap = null;
        if (profile != null) FileSystemUtils.deleteRecursively(profile.toFile());
        profile = null;
    }
}
