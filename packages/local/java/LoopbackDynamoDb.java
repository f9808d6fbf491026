import java.lang.reflect.Field;

/**
 * Starts DynamoDB Local bound to 127.0.0.1 only (it has no bind-address option of its own) and
 * exits when its parent closes stdin, so a crashed parent never leaves it running.
 */
public class LoopbackDynamoDb {
    public static void main(String[] args) throws Exception {
        Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
        Object server = runner.getMethod("createServerFromCommandLineArgs", String[].class)
            .invoke(null, (Object) args);
        Field jettyField = server.getClass().getDeclaredField("server");
        jettyField.setAccessible(true);
        Object jetty = jettyField.get(server);
        for (Object connector : (Object[]) jetty.getClass().getMethod("getConnectors").invoke(jetty)) {
            connector.getClass().getMethod("setHost", String.class).invoke(connector, "127.0.0.1");
        }
        server.getClass().getMethod("start").invoke(server);
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() != -1) { }
            } catch (Exception ignored) { }
            System.exit(0);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        System.out.println("dynamodb-local ready on 127.0.0.1");
        server.getClass().getMethod("join").invoke(server);
    }
}
