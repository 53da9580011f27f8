package dev.docapi;

import dev.docapi.accounts.AdminCommands;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the service, or with {@code admin ...} runs one administration command against the same database. */
@SpringBootApplication
@EnableScheduling
public class DocapiApplication {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("admin")) {
            SpringApplication app = new SpringApplication(DocapiApplication.class);
            app.setWebApplicationType(WebApplicationType.NONE);
            app.setLogStartupInfo(false);
            app.setAdditionalProfiles("admin");
            int code;
            try (ConfigurableApplicationContext ctx = app.run("--logging.level.root=WARN", "--spring.main.log-startup-info=false")) {
                code = ctx.getBean(AdminCommands.class).run(Arrays.copyOfRange(args, 1, args.length));
            }
            System.exit(code);
        }
        SpringApplication.run(DocapiApplication.class, args);
    }
}
