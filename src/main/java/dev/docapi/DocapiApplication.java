package dev.docapi;

import dev.docapi.management.AdminCommands;
import dev.docapi.crypto.SecretBox;
import dev.docapi.management.AdminClient;
import dev.docapi.management.AdminPreflight;
import dev.docapi.management.StartupReport;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Starts the service, or with {@code admin ...} runs one administration command: in the running service through its
 * admin API when one answers ({@link AdminClient}), else against the service's own existing database in this JVM
 * ({@code admin --direct ...} always does the latter), or exits 1 naming what is missing ({@link AdminPreflight}):
 * it never creates a database.
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
            if (args.length == 1) { // no command: the usage, without opening any database
                System.err.print(AdminCommands.USAGE);
                System.exit(2);
            }
            Optional<String> missing = AdminPreflight.missing(System.getenv());
            if (missing.isPresent()) {
                System.err.println(missing.get());
                System.exit(1);
            }
            SpringApplication app = new SpringApplication(DocapiApplication.class);
            app.setWebApplicationType(WebApplicationType.NONE);
            app.setLogStartupInfo(false);
            app.setAdditionalProfiles("admin");
            ConfigurableApplicationContext context;
            try {
                // opens the existing database as it is: no migration (an empty database stays empty), no new key file;
                // no LibreOffice warm-up (a command converts nothing: the warm-up cost seconds and its log lines mixed
                // into the command's output)
                context = app.run("--logging.level.root=WARN", "--spring.main.log-startup-info=false",
                        "--spring.flyway.enabled=false", "--docapi.admin-direct=true", "--docapi.office.warm-at-start=false");
            } catch (RuntimeException e) {
                Throwable root = e;
                while (root.getCause() != null) root = root.getCause();
                System.err.println("admin: could not open the service's database: " + root.getMessage());
                System.exit(1);
                return;
            }
            int code;
            try (ConfigurableApplicationContext ctx = context) {
                Optional<String> wrong = AdminPreflight.wrongSecret(ctx.getBean(JdbcClient.class), ctx.getBean(SecretBox.class)::open);
                if (wrong.isPresent()) System.err.println(wrong.get());
                code = wrong.isPresent() ? 1 : ctx.getBean(AdminCommands.class).run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err);
            }
            System.exit(code);
        }
        SpringApplication app = new SpringApplication(DocapiApplication.class);
        StartupReport.attachIfAsked(app);
        app.run(args);
    }
}
