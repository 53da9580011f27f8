package dev.docapi.engines;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Which external engines this node has (issue 3: "an engine that is missing answers 503 service_unavailable at
 * validation time, and the start-up log lists which engines it found"). Presence is an executable of that name on
 * {@code PATH}, looked up once per name (a {@code which}, without starting a process) and cached; the engines
 * docapi runs ({@link Engine}) are looked up and logged at start-up.
 */
@Component
public class EngineCheck {
    private static final Logger log = LoggerFactory.getLogger(EngineCheck.class);

    private final Map<String, Boolean> found = new ConcurrentHashMap<>();

    public EngineCheck() {
        List<String> present = Arrays.stream(Engine.values()).filter(this::isPresent).map(Engine::executable).toList();
        List<String> missing = Arrays.stream(Engine.values()).filter(e -> !isPresent(e)).map(Engine::executable).toList();
        log.info("Engines found: {}; missing: {}", present, missing);
    }

    /** True when an executable named {@code executable} is on this node's {@code PATH} (cached after the first look). */
    public boolean isPresent(String executable) {
        return found.computeIfAbsent(executable, EngineCheck::lookUp);
    }

    /** True when {@code engine} is installed on this node. */
    public boolean isPresent(Engine engine) {
        return isPresent(engine.executable());
    }

    /**
     * Checks that every engine an operation needs is installed; call it from {@code Operation.validate}.
     *
     * @throws ApiException 503 {@code service_unavailable} naming the first missing engine
     */
    public void require(Engine... engines) {
        require(Arrays.stream(engines).map(Engine::executable).toArray(String[]::new));
    }

    /** {@link #require(Engine...)} by executable name. */
    void require(String... executables) {
        for (String exe : executables) {
            if (!isPresent(exe)) {
                throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "this operation needs the engine '" + exe
                        + "', which is not installed on this server");
            }
        }
    }

    /** The first of {@code executables} that is present (e.g. {@code chromium}, {@code chromium-headless-shell}), or null. */
    public String firstPresent(List<String> executables) {
        return executables.stream().filter(this::isPresent).findFirst().orElse(null);
    }

    /** True when {@code engine} is on {@code PATH} now (looked up afresh, for the health endpoint). */
    public static boolean installed(Engine engine) {
        return lookUp(engine.executable());
    }

    private static boolean lookUp(String executable) {
        if (executable.contains("/")) return Files.isExecutable(Path.of(executable));
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path candidate = Path.of(dir, executable);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return true;
        }
        return false;
    }
}
