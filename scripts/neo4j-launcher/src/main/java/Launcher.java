import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;
import org.neo4j.server.configuration.ServerSettings;

/**
 * Runs an embedded Neo4j Community DBMS with the Bolt connector on
 * 127.0.0.1, password auth on, until SIGTERM/SIGINT.
 *
 * Usage: java -cp 'target/neo4j-launcher.jar:target/lib/*' Launcher [HOME_DIR]
 *   HOME_DIR (default .neo4j) gets logs/ (debug.log etc.) and, by default, data/.
 *
 * Configuration (environment):
 *   NEO4J_DATA_DIR     data directory                       default HOME_DIR/data
 *   NEO4J_PID_FILE     if set, the JVM writes its pid there
 *   NEO4J_PORT         Bolt port                            default 7687
 *   NEO4J_HTTP_PORT    HTTP port, 0 = disabled              default 0
 *   NEO4J_PASSWORD     password of user neo4j               default graphmem-dev
 *   NEO4J_PAGECACHE    page cache size (e.g. 256m, 1g)      default 256m
 *   NEO4J_TX_MEMORY    global transaction memory limit      default 512m
 *
 * The password is (re)applied to user neo4j on every start, so the server
 * always accepts exactly $NEO4J_PASSWORD.
 */
public final class Launcher {

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return (v == null || v.isBlank()) ? dflt : v.trim();
    }

    private static long bytes(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        long mult = 1;
        char last = t.charAt(t.length() - 1);
        if (last == 'b') { t = t.substring(0, t.length() - 1); last = t.charAt(t.length() - 1); }
        switch (last) {
            case 'k': mult = ByteUnit.kibiBytes(1); break;
            case 'm': mult = ByteUnit.mebiBytes(1); break;
            case 'g': mult = ByteUnit.gibiBytes(1); break;
            default: mult = 0;
        }
        if (mult == 0) {
            return Long.parseLong(t);
        }
        return Long.parseLong(t.substring(0, t.length() - 1)) * mult;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args.length > 0 ? args[0] : ".neo4j").toAbsolutePath().normalize();
        Path data = Path.of(env("NEO4J_DATA_DIR", home.resolve("data").toString())).toAbsolutePath().normalize();
        int boltPort = Integer.parseInt(env("NEO4J_PORT", "7687"));
        int httpPort = Integer.parseInt(env("NEO4J_HTTP_PORT", "0"));
        String password = env("NEO4J_PASSWORD", "graphmem-dev");
        long pageCache = bytes(env("NEO4J_PAGECACHE", "256m"));
        long txMemory = bytes(env("NEO4J_TX_MEMORY", "512m"));

        if (password.length() < 8) {
            System.err.println("NEO4J_PASSWORD must be at least 8 characters (Neo4j's minimum)");
            System.exit(2);
        }
        Files.createDirectories(home);
        Files.createDirectories(data);
        String pidFile = System.getenv("NEO4J_PID_FILE");
        if (pidFile != null && !pidFile.isBlank()) {
            Files.writeString(Path.of(pidFile), ProcessHandle.current().pid() + "\n");
        }
        Path logs = home.resolve("logs");
        Files.createDirectories(logs);

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                .setUserLogProvider(new Log4jLogProvider(System.out, Level.INFO))
                .setConfig(Map.<Setting<?>, Object>of(
                        GraphDatabaseSettings.data_directory, data,
                        GraphDatabaseSettings.logs_directory, logs,
                        GraphDatabaseSettings.auth_enabled, true,
                        GraphDatabaseSettings.pagecache_memory, pageCache,
                        GraphDatabaseSettings.memory_transaction_global_max_size, txMemory,
                        // no usage reporting / phone-home of any kind
                        GraphDatabaseSettings.udc_enabled, false,
                        GraphDatabaseInternalSettings.udc_network_enabled, false))
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("localhost", boltPort))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpsConnector.enabled, false)
                // Neo4j Browser (when its jar is on the classpath): no product-usage telemetry
                .setConfig(ServerSettings.allow_telemetry, false)
                // Faster clean shutdown: Netty's default quiet periods add ~10 s.
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(5))
                .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(2))
                .setConfig(HttpConnector.enabled, httpPort > 0);
        if (httpPort > 0) {
            builder.setConfig(HttpConnector.listen_address, new SocketAddress("127.0.0.1", httpPort));
            builder.setConfig(HttpConnector.advertised_address, new SocketAddress("localhost", httpPort));
        }

        long t0 = System.nanoTime();
        DatabaseManagementService dbms = builder.build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("[launcher] shutting down Neo4j ...");
            try {
                dbms.shutdown();
                System.out.println("[launcher] Neo4j stopped cleanly");
            } catch (Throwable t) {
                System.out.println("[launcher] error during shutdown: " + t);
            } finally {
                stopped.countDown();
            }
        }, "neo4j-shutdown"));

        setPassword(dbms, password);

        // Make sure the default database is up before we announce readiness.
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");

        System.out.printf(Locale.ROOT,
                "[launcher] Neo4j %s ready in %.1f s: bolt://127.0.0.1:%d%s (user neo4j), data %s, page cache %d MiB, heap max %d MiB%n",
                org.neo4j.kernel.internal.Version.getNeo4jVersion(),
                (System.nanoTime() - t0) / 1e9, boltPort,
                httpPort > 0 ? ", http://127.0.0.1:" + httpPort : "",
                data, pageCache >> 20, Runtime.getRuntime().maxMemory() >> 20);
        System.out.flush();

        stopped.await();
    }

    /** Set the neo4j user's password to the configured one (idempotent). */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PLAINTEXT PASSWORD $p CHANGE NOT REQUIRED",
                    Map.of("p", password));
            System.out.println("[launcher] password of user neo4j set from NEO4J_PASSWORD");
        } catch (RuntimeException e) {
            String msg = String.valueOf(e.getMessage());
            if (msg.contains("cannot be the same")) {
                // Already the configured password; just make sure no change is pending.
                system.executeTransactionally("ALTER USER neo4j SET PASSWORD CHANGE NOT REQUIRED");
                System.out.println("[launcher] password of user neo4j unchanged (matches NEO4J_PASSWORD)");
            } else {
                throw e;
            }
        }
    }
}
