package dev.docapi.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay to a real server (PostgreSQL) that a test can cut and restore, to see the service lose and
 * regain it as if the server stopped: {@link #cut} closes the listening socket and every relayed connection.
 */
public final class TcpProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket listener;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = s.getLocalPort();
        }
        restore();
    }

    public int port() {
        return port;
    }

    /** Listens again on the same port and relays new connections. */
    public synchronized void restore() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        listener = s;
        Thread.ofVirtual().start(() -> {
            while (!s.isClosed()) {
                try {
                    Socket client = s.accept();
                    Socket server = new Socket(targetHost, targetPort);
                    // a connection accepted while cut() ran is broken too: otherwise it would relay on after the cut
                    // (a pool filling itself in the background kept the "lost" database answering for a whole test)
                    synchronized (this) {
                        if (s.isClosed()) {
                            client.close();
                            server.close();
                            return;
                        }
                        open.add(client);
                        open.add(server);
                    }
                    pipe(client, server);
                    pipe(server, client);
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /** Refuses new connections and breaks the relayed ones. */
    public synchronized void cut() throws IOException {
        listener.close();
        for (Socket s : open) s.close();
        open.clear();
    }

    private static void pipe(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException closed) {
                // either side closed: the relay ends
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        });
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
