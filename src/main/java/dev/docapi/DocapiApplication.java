package dev.docapi;

import dev.docapi.accounts.AdminCommands;
import dev.docapi.management.AdminClient;
import dev.docapi.management.StartupReport;
import java.util.Arrays;
import java.util.OptionalInt;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Starts the service, or with {@code admin ...} runs one administration command: in the running service through its
 * admin API when one answers ({@link AdminClient}), else against the same database in this JVM ({@code admin --direct
 * ...} always does the latter).
 */
@SpringBootApplication
@EnableScheduling
public class DocapiApplication {
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("admin")) {
            boolean direct = args.length > 1 && args[1].equals("--direct");
            args = direct ? Arrays.copyOfRange(args, 1, args.length) : args;
            if (!direct && args.length > 1) {
                OptionalInt remote = AdminClient.run(Arrays.copyOfRange(args, 1, args.length), System.getenv());
                if (remote.isPresent()) System.exit(remote.getAsInt());
            }
            SpringApplication app = new SpringApplication(DocapiApplication.class);
            app.setWebApplicationType(WebApplicationType.NONE);
            app.setLogStartupInfo(false);
            app.setAdditionalProfiles("admin");
            int code;
            try (ConfigurableApplicationContext ctx = app.run("--logging.level.root=WARN", "--spring.main.log-startup-info=false")) {
                code = ctx.getBean(AdminCommands.class).run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err);
            }
            System.exit(code);
        }
        SpringApplication app = new SpringApplication(DocapiApplication.class);
        StartupReport.attachIfAsked(app);
        app.run(args);
    }
}
