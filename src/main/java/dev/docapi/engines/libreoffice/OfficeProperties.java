package dev.docapi.engines.libreoffice;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the warm LibreOffice pool (README "Conversion").
 *
 * @param processes       LibreOffice processes kept warm ({@code DOCAPI_OFFICE_PROCESSES}, default 2); each converts
 *                        one document at a time, so this is also the Office → PDF concurrency, and a slow document
 *                        holds only one of them (issue 9)
 * @param memoryMb        virtual memory bound of each process in MB ({@code DOCAPI_OFFICE_MEMORY_MB}, default 3072);
 *                        a document that needs more fails its own conversion and that process is restarted
 * @param taskTimeout     per-conversion limit; past it the process is killed and restarted and the job fails
 *                        ({@code DOCAPI_OFFICE_TASK_TIMEOUT}, default 120 s)
 * @param queueTimeout    how long a conversion may wait for a free process ({@code DOCAPI_OFFICE_QUEUE_TIMEOUT}, 10 min)
 * @param maxTasks        a process is restarted after this many conversions ({@code DOCAPI_OFFICE_MAX_TASKS}, 200),
 *                        bounding leaks in long-lived LibreOffice processes
 * @param warmAtStart     start the pool in the background when the service starts ({@code DOCAPI_OFFICE_WARM}, true);
 *                        when false it starts on first use
 * @param officeHome      LibreOffice installation; empty = auto-detect ({@code DOCAPI_OFFICE_HOME})
 */
@ConfigurationProperties("docapi.office")
public record OfficeProperties(@DefaultValue("2") int processes, @DefaultValue("3072") long memoryMb,
                               @DefaultValue("120s") Duration taskTimeout, @DefaultValue("10m") Duration queueTimeout,
                               @DefaultValue("200") int maxTasks, @DefaultValue("true") boolean warmAtStart,
                               @DefaultValue("") String officeHome) {
}
