package io.spillway.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A one-connection RESP server for client tests: answers each GET with the next scripted reply line (a
 * {@code -BUSY …} error or a value), every other command with {@code +OK}. Closed with the test.
 */
final class FakeRespServer implements AutoCloseable {

  final Deque<String> getReplies = new ConcurrentLinkedDeque<>();
  final List<String> commands = java.util.Collections.synchronizedList(new ArrayList<>());
  private final ServerSocket socket;
  private final Thread thread;

  FakeRespServer() throws IOException {
    socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    socket.setSoTimeout(10_000);
    thread = new Thread(this::serve, "fake-resp");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  private void serve() {
    try (Socket s = socket.accept()) {
      s.setSoTimeout(10_000);
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = s.getOutputStream();
      String header;
      while ((header = in.readLine()) != null) {
        int n = Integer.parseInt(header.substring(1));
        List<String> args = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          in.readLine();
          args.add(in.readLine());
        }
        commands.add(String.join(" ", args));
        String reply;
        if (args.get(0).equalsIgnoreCase("GET")) {
          String next = getReplies.poll();
          reply = next == null ? "$-1\r\n"
              : next.startsWith("-") ? next + "\r\n" : "$" + next.length() + "\r\n" + next + "\r\n";
        } else {
          reply = "+OK\r\n";
        }
        out.write(reply.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException e) {
      // closed
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    socket.close();
    thread.join(5_000);
  }
}
