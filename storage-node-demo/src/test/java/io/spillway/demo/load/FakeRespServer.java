package io.spillway.demo.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A scripted RESP server on loopback for the load generator's tests: one connection (or each), one canned reply. */
final class FakeRespServer {
  private FakeRespServer() {
  }

  /** Answers CLIENT and SPILLWAY.* with +OK and every data command with {@code reply} (null: never answers). */
  static ServerSocket start(String reply) throws IOException {
    return start(reply, 0);
  }

  /** {@link #start(String)}, each data reply sent {@code delayMillis} after its command was read (in order). */
  static ServerSocket start(String reply, long delayMillis) throws IOException {
    return start(reply, delayMillis, new java.util.concurrent.ConcurrentLinkedQueue<>());
  }

  /** {@link #start(String, long)}, adding each session command it answers to {@code session}, as its words. */
  static ServerSocket start(String reply, long delayMillis, java.util.Queue<String> session) throws IOException {
    return start(reply, delayMillis, session, new java.util.concurrent.ConcurrentLinkedQueue<>());
  }

  /** {@link #start(String, long, java.util.Queue)}, adding each data command it reads to {@code data}, as its words. */
  static ServerSocket start(String reply, long delayMillis, java.util.Queue<String> session,
      java.util.Queue<String> data) throws IOException {
    return start(reply, delayMillis, session, data, "+OK");
  }

  /** The same as the four-argument form, answering SPILLWAY.* with {@code spillwayReply} (CLIENT still +OK). */
  static ServerSocket start(String reply, long delayMillis, java.util.Queue<String> session,
      java.util.Queue<String> data, String spillwayReply) throws IOException {
    final ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final Thread t = new Thread(() -> {
      try (Socket s = ss.accept()) {
        serve(s, reply, delayMillis, session, data, spillwayReply);
      } catch (IOException closed) {
        // test over
      }
    }, "fake-resp");
    t.setDaemon(true);
    t.start();
    return ss;
  }

  /** Serves every connection it accepts, each on a thread of its own, as {@link #start(String)} serves one. */
  static ServerSocket startForEach(String reply) throws IOException {
    final ServerSocket ss = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    final Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          final Socket s = ss.accept();
          final Thread t = new Thread(() -> {
            try (s) {
              serve(s, reply, 0, new java.util.concurrent.ConcurrentLinkedQueue<>(),
                  new java.util.concurrent.ConcurrentLinkedQueue<>(), "+OK");
            } catch (IOException closed) {
              // connection over
            }
          }, "fake-resp");
          t.setDaemon(true);
          t.start();
        }
      } catch (IOException closed) {
        // test over
      }
    }, "fake-resp-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return ss;
  }

  private static void serve(Socket s, String reply, long delayMillis, java.util.Queue<String> session,
      java.util.Queue<String> data, String spillwayReply) {
    try {
      final InputStream in = new BufferedInputStream(s.getInputStream());
      final OutputStream out = s.getOutputStream();
      while (true) {
        final String header = RespWire.readLine(in);
        final int n = Integer.parseInt(header.substring(1));
        String name = null;
        final StringBuilder words = new StringBuilder();
        for (int i = 0; i < n; i++) {
          final int len = Integer.parseInt(RespWire.readLine(in).substring(1));
          final String arg = new String(in.readNBytes(len + 2), StandardCharsets.UTF_8).trim();
          name = name == null ? arg : name;
          words.append(i == 0 ? "" : " ").append(arg);
        }
        if (name.equals("CLIENT") || name.startsWith("SPILLWAY.")) {
          session.add(words.toString());
          out.write(((name.equals("CLIENT") ? "+OK" : spillwayReply) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        } else {
          data.add(words.toString());
          if (reply != null) {
            if (delayMillis > 0) {
              Thread.sleep(delayMillis); // a slow storage: the reply arrives after the caller's timeout
            }
            out.write((reply + "\r\n").getBytes(StandardCharsets.US_ASCII));
          }
        }
        out.flush();
      }
    } catch (IOException | RuntimeException | InterruptedException closed) {
      // connection over
    }
  }
}
