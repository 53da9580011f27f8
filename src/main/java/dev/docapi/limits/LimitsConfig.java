package dev.docapi.limits;

import io.github.bucket4j.TimeMeter;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.support.MetaDataAccessException;

/** Registers the limit settings and the request buckets they size. */
@Configuration
@EnableConfigurationProperties(LimitsProperties.class)
class LimitsConfig {
    /** Wall-clock milliseconds: the nodes sharing PostgreSQL buckets must read the same time. */
    @Bean
    RequestBuckets requestBuckets(DataSource dataSource, LimitsProperties limits) throws MetaDataAccessException {
        return RequestBuckets.forDatabase(dataSource, limits.requestsPerMinute(), TimeMeter.SYSTEM_MILLISECONDS);
    }
}
