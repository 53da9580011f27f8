package dev.docapi.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.UsageService;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.limits.QuotaPolicy;
import dev.docapi.support.ApiTestBase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A service without a model (no {@code DOCAPI_SERVICE_MODEL}) and an account without provider keys: the model
 * catalogue of such a service, built here on the test service's real key store and database (the shared test service
 * has a model configured; a second service only for this would cost the suite a Spring context, issue 41). An AI
 * operation's validation resolves its model through {@link ModelCatalog#resolve}, whose 503 the API answers as is.
 */
class UnconfiguredModelTest extends ApiTestBase {
    private static final AiProperties NONE = new AiProperties(null, null, null, null, null, null, null, "test-operator-secret",
            null, null, null, null, null);

    @Autowired
    ProviderKeys keys;
    @Autowired
    ModelFactory factory;
    @Autowired
    UsageService usage;
    @Autowired
    QuotaPolicy quotas;
    @Autowired
    PipelineModels choices;

    private Account account() {
        return accounts.createAccount("unconfigured-" + java.util.UUID.randomUUID() + "@example.com", dev.docapi.accounts.Plan.PRO).account();
    }

    @Test
    void everyPipelineAnswers503WithHowToConfigureAModel() {
        ModelCatalog catalog = new ModelCatalog(NONE, keys, factory, usage, quotas, choices);
        Account account = account();
        for (Pipeline p : Pipeline.values()) {
            assertThatThrownBy(() -> catalog.resolve(account, p, null))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
                        assertThat(e.code().status()).isEqualTo(503);
                        assertThat(e.getMessage()).contains("DOCAPI_SERVICE_MODEL").contains("add-provider-key");
                    });
        }
    }

    @Test
    void modelsListsNothingAndNoPipelineModel() {
        ModelCatalog catalog = new ModelCatalog(NONE, keys, factory, usage, quotas, choices);
        Account account = account();
        assertThat(catalog.list(account)).isEmpty();
        assertThat(catalog.pipelines(account).values()).containsOnlyNulls();
    }
}
