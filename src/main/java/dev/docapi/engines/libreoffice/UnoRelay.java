package dev.docapi.engines.libreoffice;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Carries JODConverter's UNO connection into a sandboxed LibreOffice (issue 9). The sandbox has no network, not even
 * the host's loopback, so LibreOffice listens on its own private loopback and a {@code socat} beside it exposes that
 * port as a UNIX socket in the slot folder; this relay listens on the host's loopback port JODConverter connects to
 * and joins each connection to that socket. (JODConverter's own pipe mode needs {@code libjpipe}, which Debian's
 * LibreOffice does not ship.) A connection made before LibreOffice is up is closed at once, and JODConverter retries.
 */
final class UnoRelay implements AutoCloseable {
    private final ServerSocket server;
    private final Path socket;

    private UnoRelay(ServerSocket server, Path socket) {
        this.server = server;
        this.socket = socket;
    }

    /** Listens on a free loopback port, relaying to {@code socket}; {@link #port()} tells which. */
    static UnoRelay start(Path socket) throws IOException {
        ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        UnoRelay relay = new UnoRelay(server, socket);
        Thread.ofVirtual().name("uno-relay-" + server.getLocalPort()).start(relay::acceptLoop);
        return relay;
    }

    int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> join(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void join(Socket client) {
        try (client; SocketChannel office = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            client.setTcpNoDelay(true);
            // the channel is read and written directly: its stream adapters share one lock, and a read waiting for
            // LibreOffice would then hold back the request LibreOffice waits for
            Thread back = Thread.ofVirtual().start(() -> officeToClient(office, client));
            clientToOffice(client, office);
            back.join();
        } catch (IOException e) {
            // LibreOffice is not listening yet (or has died): closing the client makes JODConverter retry
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void officeToClient(SocketChannel office, Socket client) {
        try {
            OutputStream out = client.getOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            while (office.read(buf) != -1) {
                out.write(buf.array(), 0, buf.position());
                buf.clear();
            }
        } catch (IOException ignored) {
            // LibreOffice's side closed
        }
        // closed whole, not half: the UNO bridge waiting for a handshake only gives up on a closed socket
        closeQuietly(client);
    }

    private static void clientToOffice(Socket client, SocketChannel office) {
        try {
            InputStream in = client.getInputStream();
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) != -1; ) {
                ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
                while (b.hasRemaining()) office.write(b);
            }
        } catch (IOException ignored) {
            // JODConverter's side closed
        }
        closeQuietly(office);
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
