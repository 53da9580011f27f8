package dev.docapi.operations;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/** Every {@link Operation} bean, by name. The HTTP API, MCP, workflows and the agent all look operations up here. */
@Component
public class OperationRegistry {
    private final Map<String, Operation<?>> byName = new TreeMap<>();

    public OperationRegistry(List<Operation<?>> operations) {
        for (Operation<?> op : operations) {
            if (byName.put(op.name(), op) != null) throw new IllegalStateException("two operations named " + op.name());
        }
    }

    /** @throws ApiException 404 {@code unknown_operation} */
    public Operation<?> get(String name) {
        Operation<?> op = byName.get(name);
        if (op == null) throw new ApiException(ErrorCode.UNKNOWN_OPERATION, "there is no operation '" + name + "'; operations are " + byName.keySet());
        return op;
    }

    public boolean exists(String name) {
        return byName.containsKey(name);
    }

    public Collection<Operation<?>> all() {
        return Collections.unmodifiableCollection(byName.values());
    }
}
