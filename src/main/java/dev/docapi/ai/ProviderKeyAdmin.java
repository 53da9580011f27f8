package dev.docapi.ai;

import dev.docapi.accounts.AccountService;
import java.io.PrintStream;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * {@code bin/docapi admin add-provider-key --account ID --provider P --key K [--base-url U]}: validates the key
 * with the provider and stores it sealed. {@code P} is a provider prefix ({@code openai}, {@code anthropic},
 * {@code google}) or a model id ({@code openrouter/meta-llama/llama-3.1-70b-instruct}, {@code custom/llama3.1});
 * {@code --base-url} is required for {@code custom}. The key is never printed.
 */
@Component
public class ProviderKeyAdmin {
    private final AccountService accounts;
    private final ProviderKeys keys;

    public ProviderKeyAdmin(AccountService accounts, ProviderKeys keys) {
        this.accounts = accounts;
        this.keys = keys;
    }

    /** @throws IllegalArgumentException with a message for the operator */
    public void addProviderKey(Map<String, String> opts, PrintStream out) {
        String account = opts.get("account");
        if (account == null || account.isBlank()) throw new IllegalArgumentException("--account is required");
        accounts.findById(account).orElseThrow(() -> new IllegalArgumentException("no account " + account));
        String provider = opts.get("provider");
        if (provider == null || provider.isBlank()) throw new IllegalArgumentException("--provider is required");
        var entry = keys.add(account, provider.strip(), opts.get("key"), opts.get("base-url"));
        out.println("provider key for " + entry.modelId().id() + " checked with the provider and stored encrypted for account " + account);
    }
}
