package dev.docapi.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** {@code DOCAPI_LOG_FORMAT} and the node's name before logging starts (issue 38); the JSON lines are in TracingTest. */
class NodeEnvironmentTest {

    private static MockEnvironment processed(MockEnvironment env) {
        new NodeEnvironment().postProcessEnvironment(env, null);
        return env;
    }

    @Test
    void jsonIsEcsAndTheWordsSpringBootKnowsPassThrough() {
        assertThat(NodeEnvironment.logFormat("json")).isEqualTo("ecs");
        assertThat(NodeEnvironment.logFormat(" JSON ")).isEqualTo("ecs");
        assertThat(NodeEnvironment.logFormat("logstash")).isEqualTo("logstash");
        assertThat(NodeEnvironment.logFormat("gelf")).isEqualTo("gelf");
        assertThat(NodeEnvironment.logFormat("")).isEmpty();
        assertThat(NodeEnvironment.logFormat("text")).isEmpty();
        assertThat(NodeEnvironment.logFormat("com.example.MyFormatter")).isEqualTo("com.example.MyFormatter");
        assertThat(processed(new MockEnvironment().withProperty(NodeEnvironment.FORMAT, "json")).getProperty(NodeEnvironment.FORMAT)).isEqualTo("ecs");
    }

    @Test
    void anUnknownFormatStopsTheStartNamingTheAcceptedValues() {
        assertThatThrownBy(() -> processed(new MockEnvironment().withProperty(NodeEnvironment.FORMAT, "xml")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DOCAPI_LOG_FORMAT='xml'").hasMessageContaining("json, ecs, logstash, gelf, text");
    }

    @Test
    void theNodeNameGoesToEveryStructuredFormatAndToTheSpansResource() {
        MockEnvironment env = processed(new MockEnvironment().withProperty("docapi.node-name", "node7").withProperty(NodeEnvironment.FORMAT, "logstash"));
        assertThat(env.getProperty("logging.structured.ecs.service.node-name")).isEqualTo("node7");
        assertThat(env.getProperty("logging.structured.gelf.host")).isEqualTo("node7");
        assertThat(env.getProperty("logging.structured.json.add.node")).isEqualTo("node7");
        assertThat(env.getProperty("management.opentelemetry.resource-attributes.service.instance.id")).isEqualTo("node7");
        assertThat(env.getProperty("management.opentelemetry.resource-attributes.host.name")).isEqualTo("node7");

        // unset: the host name, the same as the Docapi-Node header's (DocapiProperties)
        MockEnvironment unnamed = processed(new MockEnvironment().withProperty("docapi.node-name", ""));
        assertThat(unnamed.getProperty("docapi.node-name")).isEqualTo(DocapiProperties.nodeName(null)).isNotBlank();
        assertThat(unnamed.getProperty("logging.structured.ecs.service.node-name")).isEqualTo(DocapiProperties.nodeName(null));

        // an operator's own setting wins
        MockEnvironment own = processed(new MockEnvironment().withProperty("docapi.node-name", "node7")
                .withProperty("management.opentelemetry.resource-attributes.host.name", "vm-12"));
        assertThat(own.getProperty("management.opentelemetry.resource-attributes.host.name")).isEqualTo("vm-12");
    }
}
