package dev.docapi.config;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The database: PostgreSQL when {@code DOCAPI_DATABASE_URL} is set, otherwise an embedded H2 file under the
 * data directory. H2 runs with AUTO_SERVER so that {@code bin/docapi admin} can use it while the service runs, and
 * with WRITE_DELAY=0 so that a committed job survives the process being killed (H2 otherwise writes up to 500 ms late).
 */
@Configuration
@EnableConfigurationProperties(DocapiProperties.class)
public class DataSourceConfig {

    @Bean
    DataSource dataSource(DocapiProperties props) {
        HikariDataSource ds = new HikariDataSource();
        if (props.databaseUrl() != null && !props.databaseUrl().isBlank()) {
            ds.setJdbcUrl(props.databaseUrl());
            if (props.databaseUser() != null && !props.databaseUser().isBlank()) ds.setUsername(props.databaseUser());
            if (props.databasePassword() != null && !props.databasePassword().isBlank()) ds.setPassword(props.databasePassword());
        } else {
            String path = props.dataDir().toAbsolutePath().normalize().resolve("db").resolve("docapi").toString();
            ds.setJdbcUrl("jdbc:h2:file:" + path + ";AUTO_SERVER=TRUE;WRITE_DELAY=0");
            ds.setUsername("sa");
        }
        ds.setMaximumPoolSize(16);
        ds.setPoolName("docapi");
        return ds;
    }
}
