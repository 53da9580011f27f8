package dev.docapi.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Independent;
import dev.docapi.support.PackagedService;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A port scan of the machine while the packaged service runs on the embedded database (issue 10): the only
 * listener of the service's process reachable from outside is its HTTP port; the embedded database's AUTO_SERVER
 * port and the LibreOffice relays listen on loopback only.
 */
class ListenersIT {

    @Test
    void onlyTheHttpPortListensBeyondLoopback() throws Exception {
        PackagedService service = new PackagedService().start();
        try {
            service.admin("list-accounts"); // the admin CLI meets the running service's database over AUTO_SERVER
            String pid = String.valueOf(service.process().pid());
            List<String> listeners = Independent.run("ss", "-Hltnp").output().lines().filter(l -> l.contains("pid=" + pid + ",")).toList();
            assertThat(listeners).as("listeners of the service").isNotEmpty();
            String httpPort = service.base().replaceAll(".*:(\\d+)/v1", "$1");
            for (String line : listeners) {
                String local = line.trim().split("\\s+")[3];
                boolean loopback = local.startsWith("127.") || local.startsWith("[::1]") || local.startsWith("[::ffff:127.");
                assertThat(loopback || local.endsWith(":" + httpPort)).as("listener %s", line).isTrue();
            }
        } finally {
            service.terminate();
        }
    }
}
