package io.agentteams.devstack.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One loopback address in front of a service's replicas, as a cluster's service address is: each
 * new connection goes to the next replica that accepts it, so a replica that is down is skipped and
 * connections to one that dies are cut (the client retries on a new one). Bytes pass through
 * untouched.
 */
public final class ServiceFront implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ServiceFront.class);
  private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

  private final String name;
  private final ServerSocket server;
  private final List<Integer> backends;
  private final AtomicInteger next = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private ServiceFront(String name, ServerSocket server, List<Integer> backends) {
    this.name = name;
    this.server = server;
    this.backends = List.copyOf(backends);
  }

  /**
   * Listens on {@code 127.0.0.1:port} for the replicas on the given loopback ports.
   *
   * @param port the front's port, 0 for any free one
   */
  public static ServiceFront open(String name, int port, List<Integer> backends) {
    try {
      ServerSocket server = new ServerSocket();
      server.setReuseAddress(true);
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
      ServiceFront front = new ServiceFront(name, server, backends);
      Thread acceptor = new Thread(front::accept, "front-" + name);
      acceptor.setDaemon(true);
      acceptor.start();
      return front;
    } catch (IOException e) {
      throw new UncheckedIOException("could not listen for " + name + " on port " + port, e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (!closed) {
          log.warn("front of {} stopped accepting: {}", name, e.toString());
        }
        return;
      }
      Thread connect = new Thread(() -> serve(client), "front-" + name + "-connect");
      connect.setDaemon(true);
      connect.start();
    }
  }

  private void serve(Socket client) {
    Socket backend = connect();
    if (backend == null) {
      closeQuietly(client);
      return;
    }
    open.add(client);
    open.add(backend);
    Thread upstream = pump(client, backend, "up");
    Thread downstream = pump(backend, client, "down");
    upstream.start();
    downstream.start();
  }

  /** A connection to the next replica that accepts one, or null when none does. */
  private Socket connect() {
    int first = Math.floorMod(next.getAndIncrement(), backends.size());
    for (int i = 0; i < backends.size(); i++) {
      int port = backends.get((first + i) % backends.size());
      Socket socket = new Socket();
      try {
        socket.setTcpNoDelay(true);
        socket.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
        return socket;
      } catch (IOException refused) {
        closeQuietly(socket);
      }
    }
    return null;
  }

  private Thread pump(Socket from, Socket to, String direction) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                  out.write(buffer, 0, read);
                  out.flush();
                }
              } catch (IOException cut) {
                // One side went away; the other is closed below so that its peer learns of it.
              } finally {
                close(from);
                close(to);
              }
            },
            "front-" + name + "-" + direction);
    thread.setDaemon(true);
    return thread;
  }

  private void close(Socket socket) {
    open.remove(socket);
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Already gone.
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // Stopping anyway.
    }
    open.forEach(ServiceFront::closeQuietly);
  }
}
