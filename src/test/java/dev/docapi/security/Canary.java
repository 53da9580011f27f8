package dev.docapi.security;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback TCP and UDP server that counts what reaches it: the witness of the sandbox tests (issue 9). */
final class Canary implements AutoCloseable {
    final AtomicInteger tcp = new AtomicInteger();
    final AtomicInteger udp = new AtomicInteger();
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final DatagramSocket datagrams = new DatagramSocket(0, InetAddress.getLoopbackAddress());

    Canary() throws Exception {
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    tcp.incrementAndGet();
                } catch (Exception closed) {
                    return;
                }
            }
        });
        datagrams.setSoTimeout(200);
        Thread.ofVirtual().start(() -> {
            byte[] buf = new byte[512];
            while (!datagrams.isClosed()) {
                try {
                    datagrams.receive(new DatagramPacket(buf, buf.length));
                    udp.incrementAndGet();
                } catch (SocketTimeoutException idle) {
                    // keep listening
                } catch (Exception closed) {
                    return;
                }
            }
        });
    }

    int tcpPort() {
        return server.getLocalPort();
    }

    int udpPort() {
        return datagrams.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.close();
        datagrams.close();
    }
}
