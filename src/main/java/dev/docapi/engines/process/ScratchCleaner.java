package dev.docapi.engines.process;

import dev.docapi.config.DocapiProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.util.FileSystemUtils;

/**
 * Empties this node's work folder ({@code $DOCAPI_DATA_DIR/work}) at start-up (issue 9 "no orphans"): the job and
 * engine folders left there by a service that was killed belong to jobs that are now {@code interrupted}. Finished
 * jobs remove their own folder. Once per process: a second service context in the same JVM (tests) must not delete
 * the live folders of the first. Not in the admin CLI, which shares the data dir with a running service.
 */
@Component
public class ScratchCleaner {
    private static final Logger log = LoggerFactory.getLogger(ScratchCleaner.class);

    private static final java.util.concurrent.atomic.AtomicBoolean CLEANED = new java.util.concurrent.atomic.AtomicBoolean();

    public ScratchCleaner(DocapiProperties props, Environment env) {
        if (!env.matchesProfiles("admin") && CLEANED.compareAndSet(false, true)) clean(props.workDir());
    }

    static void clean(Path workDir) {
        if (!Files.isDirectory(workDir)) return;
        long removed = 0;
        try (Stream<Path> left = Files.list(workDir)) {
            for (Path p : left.toList()) {
                FileSystemUtils.deleteRecursively(p);
                removed++;
            }
        } catch (IOException e) {
            log.warn("could not empty the work folder {}: {}", workDir, e.getMessage());
        }
        if (removed > 0) log.info("removed {} work folder(s) left by an earlier run", removed);
    }
}
