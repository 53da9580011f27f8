package dev.docapi.management;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.AccountService;
import dev.docapi.accounts.LoginLinks;
import dev.docapi.accounts.Plan;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * {@code bin/docapi admin <command>}: account and key administration, run in the service through the admin API
 * ({@code management/AdminApi}) or, when no service answers, in a JVM of its own. Output that a script reads (a key,
 * a secret) is printed alone on the last line of stdout. Exit code 0 on success, 2 on a usage error, 1 otherwise.
 */
@Component
public class AdminCommands {
    /** What {@code bin/docapi admin} prints for a usage error. */
    public static final String USAGE = """
            usage: bin/docapi admin <command>
              runs in the service whose management port is 127.0.0.1:$DOCAPI_MANAGEMENT_PORT (default 8081; set it for a node
              on another port), with DOCAPI_SECRET or DOCAPI_ADMIN_TOKEN; without a service, only on its existing database
              create-account --email E [--plan free|week_pass|pro|team]   prints the new API key on the last line
              create-key --account ID                                     prints the new API key on the last line
              revoke-key --key-prefix P
              list-accounts
              set-plan --account ID --plan P
              show-webhook-secret --email E                               prints the secret on the last line
              rotate-webhook-secret --email E                             prints the new secret on the last line
              login-link --email E                                        prints a one-time developer area sign-in link (15 minutes)
              add-provider-key --account ID --provider P --key K [--base-url U]   checks the key with the provider, stores it encrypted
              rotate-master-key [--new-secret S]                          re-seals every stored secret under a new master key
                                                                          (new secrets.key, or S: then set DOCAPI_SECRET=S); restart services
            """;
    private final AccountService accounts;
    private final dev.docapi.ai.ProviderKeyAdmin providerKeys;
    private final dev.docapi.crypto.SecretMigration secrets;
    private final LoginLinks loginLinks;
    private final dev.docapi.config.PublicBaseUrl baseUrl;

    public AdminCommands(AccountService accounts, dev.docapi.ai.ProviderKeyAdmin providerKeys, dev.docapi.crypto.SecretMigration secrets,
                         LoginLinks loginLinks, dev.docapi.config.PublicBaseUrl baseUrl) {
        this.accounts = accounts;
        this.loginLinks = loginLinks;
        this.baseUrl = baseUrl;
        this.secrets = secrets;
        this.providerKeys = providerKeys;
    }

    /**
     * Runs one command, writing what it says to {@code out} and its errors to {@code err}.
     *
     * @return the exit code: 0 on success, 2 on a usage error, 1 otherwise
     */
    public int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(USAGE);
            return 2;
        }
        Map<String, String> opts = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                err.println("admin: expected --name value, got '" + args[i] + "'");
                return 2;
            }
            opts.put(args[i].substring(2), args[++i]);
        }
        try {
            switch (args[0]) {
                case "create-account" -> {
                    var created = accounts.createAccount(require(opts, "email"), Plan.of(opts.getOrDefault("plan", "free")));
                    out.println("account " + created.account().id() + " (" + created.account().email() + ", plan "
                            + created.account().plan().id() + ")");
                    out.println("API key (shown once):");
                    out.println(created.apiKey());
                }
                case "create-key" -> {
                    String key = accounts.createKey(require(opts, "account"));
                    out.println("API key (shown once):");
                    out.println(key);
                }
                case "revoke-key" -> {
                    if (!accounts.revokeKey(require(opts, "key-prefix"))) {
                        err.println("admin: no active key with that prefix");
                        return 1;
                    }
                    out.println("revoked");
                }
                case "list-accounts" -> {
                    for (Account a : accounts.list()) out.println(a.id() + "\t" + a.email() + "\t" + a.plan().id() + "\t" + a.createdAt());
                }
                case "set-plan" -> {
                    String id = require(opts, "account");
                    accounts.findById(id).orElseThrow(() -> new IllegalArgumentException("no account " + id));
                    accounts.setPlan(id, Plan.of(require(opts, "plan")));
                    out.println("plan set");
                }
                case "show-webhook-secret" -> out.println(byEmail(require(opts, "email")).webhookSecret());
                case "rotate-webhook-secret" -> out.println(accounts.rotateWebhookSecret(byEmail(require(opts, "email")).id()));
                case "login-link" -> {
                    String token = loginLinks.create(byEmail(require(opts, "email")).id());
                    out.println("one-time sign-in link, valid " + LoginLinks.VALIDITY.toMinutes() + " minutes:");
                    out.println(baseUrl.site() + "/signin/link?token=" + token);
                }
                case "add-provider-key" -> providerKeys.addProviderKey(opts, out);
                case "rotate-master-key" -> {
                    int n = secrets.rotate(opts.get("new-secret"));
                    out.println(n + " secrets re-sealed under the new master key; restart every service"
                            + (opts.containsKey("new-secret") ? " with DOCAPI_SECRET set to the new secret" : ""));
                }
                default -> {
                    err.println("admin: unknown command '" + args[0] + "'");
                    err.print(USAGE);
                    return 2;
                }
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("admin: " + e.getMessage());
            return 1;
        } catch (java.io.IOException e) {
            err.println("admin: the new key could not be stored: " + e.getMessage());
            return 1;
        }
    }

    private Account byEmail(String email) {
        return accounts.findByEmail(email).orElseThrow(() -> new IllegalArgumentException("no account with email " + email));
    }

    private static String require(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null || v.isBlank()) throw new IllegalArgumentException("--" + name + " is required");
        return v;
    }
}
